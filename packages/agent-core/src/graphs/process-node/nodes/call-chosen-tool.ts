import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { contextFor } from '../agent-context.ts';
import { chooseAndCallTool } from '../choose-and-call-tool.ts';
import { knowledgePoster, type PostKnowledge, postSearchResults } from '../knowledge-messages.ts';
import { knowledgeSnippets } from '../knowledge-snippets.ts';
import { knowledgeStepOf } from '../knowledge-step.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const FAILED = { en: 'The chosen tool gave nothing; going on without it.', zh: '所选工具没有结果，继续进行。' };
const EMPTY = { en: 'no result', zh: '没有结果' };
const ALREADY_POSTED = {
  en: (tool: string, n: number) =>
    `The chosen tool (${tool}) found ${n} passage${n === 1 ? '' : 's'}, already shown above.`,
  zh: (tool: string, n: number) => `所选工具（${tool}）找到的 ${n} 段内容上面已经列出。`,
};

/**
 * After a knowledge search (exploring, or gathering before a decomposition or a conclusion): when the port
 * offers other tools, asks the agent's model which one (if any) would help, calls it and posts each result
 * as a RAG message with its sources in that agent's conversation (once: what the search posted is not
 * posted again, a notice says so), or a notice when the tool gave nothing.
 * Before a decomposition or a conclusion the results also join the snippets of the agent's prompt (first,
 * since the model asked for them). Only routed to when the port can list tools.
 */
export function callChosenTool(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const knowledge = deps.knowledge;
    if (!knowledge) return {};
    const { agent, conversation } = knowledgeStepOf(state);
    const answer = await chooseAndCallTool(knowledge, deps.model, {
      agent,
      language: state.language,
      context: contextFor(state, agent),
      offlineHint: offlineHintOf(state),
      signal: config.signal,
    });
    if (!answer) return {};
    const { tool, choice } = answer;
    const write = knowledgePoster(deps.store, { nodeId: state.nodeId, conversation }, (kind, i) =>
      writeKey(config, 'callChosenTool', agent, state.explorations, kind, i),
    );
    // Every message of this step says which tool the model chose, with what arguments, and why.
    const post: PostKnowledge = (kind, i, content, extra = {}) =>
      write(kind, i, content, {
        ...extra,
        metadata: { tool, arguments: choice.arguments, why: choice.why, ...extra.metadata },
      });
    const failures = answer.notices.map((notice) => notice.message);
    if (answer.results.length === 0 && failures.length === 0) failures.push(`${tool}: ${EMPTY[state.language]}`);
    for (const [i, message] of failures.entries()) await post('NOTICE', i, `${FAILED[state.language]} (${message})`);
    const { knowledgePosted, fresh } = await postSearchResults(post, answer.results, knowledge.name, {
      conversation,
      posted: state.knowledgePosted,
    });
    // What the tool found was already posted above: say so, so its call stays visible.
    if (answer.results.length > 0 && fresh === 0)
      await post('NOTICE', failures.length, ALREADY_POSTED[state.language](tool, answer.results.length));
    if (agent === 'explore') return { knowledgePosted };
    const knowledgeResults = [...answer.results, ...state.knowledgeResults];
    return { knowledgeResults, knowledgeText: knowledgeSnippets(knowledgeResults), knowledgePosted };
  };
}
