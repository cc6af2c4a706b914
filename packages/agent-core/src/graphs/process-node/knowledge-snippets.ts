import { createHash } from 'node:crypto';
import { isAgentError } from '../../errors/agent-error.ts';
import type { KnowledgePort, KnowledgeResult, KnowledgeSearchAnswer } from '../../ports/knowledge-port.ts';

/** The most characters of retrieved snippets added to an agent's prompt. */
export const KNOWLEDGE_PROMPT_LIMIT = 2000;

/**
 * Searches `knowledge` and never throws for a source that is down or slow: ports that report notices do so
 * themselves; for the others `KNOWLEDGE_UNAVAILABLE` becomes one notice. Other errors (cancellation) pass.
 */
export async function searchOrNotice(
  knowledge: KnowledgePort,
  query: string,
  options: { context?: string; maxResults?: number; signal?: AbortSignal },
): Promise<KnowledgeSearchAnswer> {
  if (knowledge.searchWithNotices) return knowledge.searchWithNotices(query, options);
  try {
    return { results: await knowledge.search(query, options), notices: [] };
  } catch (error) {
    if (!isAgentError(error, 'KNOWLEDGE_UNAVAILABLE')) throw error;
    return { results: [], notices: [{ message: error.message }] };
  }
}

/** The text of a result as posted in a RAG message: its title, then its content. */
export const resultContent = (result: KnowledgeResult) =>
  result.title ? `${result.title}\n${result.content}` : result.content;

/** A short key naming a result by its sources and text: the same passage found twice has the same key. */
export function knowledgeKey(result: KnowledgeResult): string {
  const sources = result.sources.map((s) => s.uri ?? s.title).join('|');
  return createHash('sha1')
    .update(`${sources}\n${resultContent(result)}`)
    .digest('hex')
    .slice(0, 16);
}

/** The results as numbered snippets for a prompt, cut to `limit` characters in all. */
export function knowledgeSnippets(results: KnowledgeResult[], limit = KNOWLEDGE_PROMPT_LIMIT): string {
  const text = results
    .map((result, i) => {
      const source = result.sources.map((s) => s.title).join('; ');
      return `[${i + 1}]${source ? ` (${source})` : ''} ${resultContent(result)}`;
    })
    .join('\n');
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
