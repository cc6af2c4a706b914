import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { chooseAndCallTool } from '../choose-and-call-tool.ts';
import { knowledgeSnippets, resultContent } from '../knowledge-snippets.ts';
import { knowledgeStepOf } from '../knowledge-step.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const FAILED = { en: 'The chosen tool gave nothing; going on without it.', zh: '所选工具没有结果，继续进行。' };
const EMPTY = { en: 'no result', zh: '没有结果' };

/**
 * After a knowledge search (exploring, or gathering before a decomposition or a conclusion): when the port
 * offers other tools, asks the agent's model which one (if any) would help, calls it and posts each result
 * as a RAG message with its sources in that agent's conversation, or a notice when the tool gave nothing.
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
      context: state.contextText,
      offlineHint: offlineHintOf(state),
      signal: config.signal,
    });
    if (!answer) return {};
    const { tool, choice } = answer;
    const post = (kind: 'RAG' | 'NOTICE', i: number, content: string, extra: Record<string, unknown> = {}) =>
      deps.store.postMessage({
        nodeId: state.nodeId,
        conversation,
        role: 'SYSTEM',
        kind,
        content,
        metadata: { tool, arguments: choice.arguments, why: choice.why, ...extra },
        idempotencyKey: writeKey(config, 'callChosenTool', agent, state.explorations, kind, i),
        ...(kind === 'RAG' ? { sources: answer.results[i]?.sources } : {}),
      });
    const failures = answer.notices.map((notice) => notice.message);
    if (answer.results.length === 0 && failures.length === 0) failures.push(`${tool}: ${EMPTY[state.language]}`);
    for (const [i, message] of failures.entries()) await post('NOTICE', i, `${FAILED[state.language]} (${message})`);
    for (const [i, result] of answer.results.entries())
      await post('RAG', i, resultContent(result), { score: result.score, source: knowledge.name });
    if (agent === 'explore') return {};
    return { knowledgeText: knowledgeSnippets([...answer.results, ...state.knowledgeResults]) };
  };
}
