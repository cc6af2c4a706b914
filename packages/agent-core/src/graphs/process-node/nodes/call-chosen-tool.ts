import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { isAgentError } from '../../../errors/agent-error.ts';
import { chooseToolMessages } from '../../../prompts/choose-tool.ts';
import { ToolChoiceSchema } from '../../../schemas/tool-choice.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** The most characters of a tool's answer posted in a message. */
const MAX_ANSWER = 4000;
const FAILED = { en: 'The chosen tool gave nothing; going on without it.', zh: '所选工具没有结果，继续进行。' };

/**
 * After the explore search: when the knowledge port offers other tools, asks the model which one (if any)
 * would help, calls it and posts its answer as a RAG message with the tool as source, or a notice when
 * the call failed. Only routed to when the port can list and call tools.
 */
export function callChosenTool(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const knowledge = deps.knowledge;
    const tools = (await knowledge?.listTools?.()) ?? [];
    if (!knowledge?.callTool || tools.length === 0) return {};
    const choice = await deps.model.structured({
      agent: 'explore',
      schema: ToolChoiceSchema,
      schemaName: 'tool_choice',
      messages: chooseToolMessages(state.language, state.contextText, tools),
      offlineHint: offlineHintOf(state),
      signal: config.signal,
    });
    const tool = tools.find((t) => t.id === choice.value.tool);
    if (!tool) return {};
    const post = (kind: 'RAG' | 'NOTICE', content: string, extra: Record<string, unknown> = {}) =>
      deps.store.postMessage({
        nodeId: state.nodeId,
        conversation: state.conversation,
        role: 'SYSTEM',
        kind,
        content,
        metadata: { tool: tool.id, arguments: choice.value.arguments, why: choice.value.why },
        idempotencyKey: writeKey(config, 'callChosenTool', state.explorations),
        ...extra,
      });
    try {
      const answer = await knowledge.callTool(tool.id, choice.value.arguments, config.signal);
      const content =
        answer.content.length > MAX_ANSWER ? `${answer.content.slice(0, MAX_ANSWER - 1)}…` : answer.content;
      await post('RAG', content, { sources: answer.sources });
    } catch (error) {
      if (!isAgentError(error, 'KNOWLEDGE_UNAVAILABLE')) throw error;
      await post('NOTICE', `${FAILED[state.language]} (${tool.id}: ${error.message})`);
    }
    return {};
  };
}
