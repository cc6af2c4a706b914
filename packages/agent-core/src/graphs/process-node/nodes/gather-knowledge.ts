import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { knowledgePoster, postSearchResults, searchNodeKnowledge } from '../knowledge-messages.ts';
import { knowledgeSnippets } from '../knowledge-snippets.ts';
import { knowledgeStepOf } from '../knowledge-step.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const UNAVAILABLE = {
  en: 'A knowledge source gave nothing; going on without it.',
  zh: '有知识来源没有结果，继续进行。',
};

/**
 * Searches knowledge once for the node before the decompose or conclude agent works on it: posts each result
 * (not already posted by this run) as a RAG message with its sources in that agent's conversation, a notice
 * per source that was down or slow, and hands the agent the snippets (bounded) for its prompt. Only routed to when a port is configured;
 * when the port offers other tools (`domain_knowledge` among them), `callChosenTool` follows.
 */
export function gatherKnowledge(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const knowledge = deps.knowledge;
    if (!knowledge) return {};
    const { agent, conversation } = knowledgeStepOf(state);
    const answer = await searchNodeKnowledge(knowledge, state, agent, config);
    const post = knowledgePoster(deps.store, { nodeId: state.nodeId, conversation }, (kind, i) =>
      writeKey(config, 'gatherKnowledge', conversation, kind, i),
    );
    for (const [i, notice] of answer.notices.entries())
      await post('NOTICE', i, `${UNAVAILABLE[state.language]} (${knowledge.name}: ${notice.message})`);
    const { knowledgePosted } = await postSearchResults(post, answer.results, knowledge.name, {
      conversation,
      posted: state.knowledgePosted,
    });
    return { knowledgeResults: answer.results, knowledgeText: knowledgeSnippets(answer.results), knowledgePosted };
  };
}
