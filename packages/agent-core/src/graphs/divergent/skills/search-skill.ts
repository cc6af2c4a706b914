import type { SkillRequest, SkillResult } from '../../../ports/divergent-skills-port.ts';
import type { KnowledgePort, KnowledgeSource } from '../../../ports/knowledge-port.ts';

/**
 * Library or web search through a knowledge port: the hits as a Markdown list with their sources kept.
 * Fails (the task is then FAILED) when the source gave nothing because it was down, with its notices.
 */
export async function searchSkill(port: KnowledgePort, request: SkillRequest): Promise<SkillResult> {
  const options = { context: request.intent, maxResults: 5, signal: request.signal };
  const answer = port.searchWithNotices
    ? await port.searchWithNotices(request.query, options)
    : { results: await port.search(request.query, options), notices: [] };
  if (!answer.results.length && answer.notices.length) throw new Error(answer.notices.map((n) => n.message).join('; '));
  const zh = request.language === 'zh';
  const lines = answer.results.map((r, i) => {
    const where = r.sources.map((s) => (s.uri ? `[${s.title}](${s.uri})` : s.title)).join(', ');
    return `${i + 1}. **${r.title || request.query}** — ${r.content}${where ? ` (${where})` : ''}`;
  });
  const text = lines.length
    ? lines.join('\n')
    : zh
      ? `${port.name}：没有找到相关结果。`
      : `${port.name}: nothing found.`;
  request.onToken?.(text);
  const sources: KnowledgeSource[] = answer.results.flatMap((r) => r.sources);
  return { text, sources };
}
