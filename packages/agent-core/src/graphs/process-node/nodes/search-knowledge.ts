import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { isAgentError } from '../../../errors/agent-error.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const NOTICES = {
  none: { en: 'No knowledge source is configured; going on without a search.', zh: '未配置知识来源，跳过检索。' },
  empty: { en: 'The search found nothing.', zh: '检索没有找到结果。' },
  down: { en: 'The knowledge source could not be reached.', zh: '无法连接知识来源。' },
};

/**
 * Searches the knowledge port for the node's question and posts each result as a RAG message with its
 * sources (or a notice when there is no source, no result, or the source is down); the graph then goes
 * back to context collection and intent recognition.
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
        idempotencyKey: writeKey(config, 'searchKnowledge', n, i),
        ...extra,
      });
    const language = state.language;
    if (!deps.knowledge) {
      await post(NOTICES.none[language], 'NOTICE', 0);
      return { explorations: n + 1 };
    }
    const facts = state.facts!;
    try {
      const results = await deps.knowledge.search(`${facts.question} ${facts.goal}`.trim(), {
        context: state.contextText.slice(0, 2000),
        maxResults: 5,
        signal: config.signal,
      });
      if (results.length === 0) await post(NOTICES.empty[language], 'NOTICE', 0);
      for (const [i, result] of results.entries()) {
        await post(result.title ? `${result.title}\n${result.content}` : result.content, 'RAG', i, {
          sources: result.sources,
          metadata: { score: result.score, source: deps.knowledge.name },
        });
      }
    } catch (error) {
      if (!isAgentError(error, 'KNOWLEDGE_UNAVAILABLE')) throw error;
      await post(`${NOTICES.down[language]} (${deps.knowledge.name})`, 'NOTICE', 0);
    }
    return { explorations: n + 1 };
  };
}
