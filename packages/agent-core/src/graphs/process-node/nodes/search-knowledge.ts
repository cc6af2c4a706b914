import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { resultContent, searchOrNotice } from '../knowledge-snippets.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const NOTICES = {
  none: { en: 'No knowledge source is configured; going on without a search.', zh: '未配置知识来源，跳过检索。' },
  empty: { en: 'The search found nothing.', zh: '检索没有找到结果。' },
  down: { en: 'The knowledge source could not be reached.', zh: '无法连接知识来源。' },
};

/**
 * Searches the knowledge port for the node's question and posts each result as a RAG message with its
 * sources, plus a notice per source that was down, slow or failing (also when others answered), or one
 * when there is no source or no result; the graph then goes back to context collection and intent
 * recognition.
 */
export function searchKnowledge(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const n = state.explorations;
    const post = (content: string, kind: 'RAG' | 'NOTICE', i: number, extra: Record<string, unknown> = {}) =>
      deps.store.postMessage({
        nodeId: state.nodeId,
        conversation: state.conversation,
        role: 'SYSTEM',
        kind,
        content,
        idempotencyKey: writeKey(config, 'searchKnowledge', n, kind, i),
        ...extra,
      });
    const language = state.language;
    const knowledge = deps.knowledge;
    if (!knowledge) {
      await post(NOTICES.none[language], 'NOTICE', 0);
      return { explorations: n + 1 };
    }
    const facts = state.facts!;
    const answer = await searchOrNotice(knowledge, `${facts.question} ${facts.goal}`.trim(), {
      context: state.contextText.slice(0, 2000),
      maxResults: 5,
      signal: config.signal,
    });
    for (const [i, notice] of answer.notices.entries())
      await post(`${NOTICES.down[language]} (${knowledge.name}: ${notice.message})`, 'NOTICE', i);
    if (answer.results.length === 0 && answer.notices.length === 0) await post(NOTICES.empty[language], 'NOTICE', 0);
    for (const [i, result] of answer.results.entries()) {
      await post(resultContent(result), 'RAG', i, {
        sources: result.sources,
        metadata: { score: result.score, source: knowledge.name },
      });
    }
    return { explorations: n + 1 };
  };
}
