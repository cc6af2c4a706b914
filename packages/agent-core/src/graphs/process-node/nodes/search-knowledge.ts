import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { knowledgePoster, postSearchResults, searchNodeKnowledge } from '../knowledge-messages.ts';
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
    const post = knowledgePoster(deps.store, { nodeId: state.nodeId, conversation: state.conversation }, (kind, i) =>
      writeKey(config, 'searchKnowledge', n, kind, i),
    );
    const language = state.language;
    const knowledge = deps.knowledge;
    if (!knowledge) {
      await post('NOTICE', 0, NOTICES.none[language]);
      return { explorations: n + 1 };
    }
    const answer = await searchNodeKnowledge(knowledge, state, 'explore', config);
    for (const [i, notice] of answer.notices.entries())
      await post('NOTICE', i, `${NOTICES.down[language]} (${knowledge.name}: ${notice.message})`);
    if (answer.results.length === 0 && answer.notices.length === 0) await post('NOTICE', 0, NOTICES.empty[language]);
    const { knowledgePosted } = await postSearchResults(post, answer.results, knowledge.name, {
      conversation: state.conversation,
      posted: state.knowledgePosted,
    });
    return { explorations: n + 1, knowledgePosted };
  };
}
