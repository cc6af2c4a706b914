import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { askClarifyingQuestionMessages } from '../../../prompts/ask-clarifying-question.ts';
import { ClarifyQuestionSchema } from '../../../schemas/clarify-question.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** Writes one clarifying question with why it is needed, posts it in the node's conversation, marks WAITING. */
export function formulateQuestion(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const result = await deps.model.structured({
      agent: 'clarify',
      schema: ClarifyQuestionSchema,
      schemaName: 'clarify_question',
      messages: askClarifyingQuestionMessages(state.language, contextFor(state, 'clarify')),
      offlineHint: offlineHintOf(state),
      signal: config.signal,
    });
    const message = await deps.store.postMessage({
      nodeId: state.nodeId,
      conversation: state.conversation,
      role: 'ASSISTANT',
      kind: 'TEXT',
      content: result.value.question,
      metadata: { why: result.value.why, clarify: true },
      idempotencyKey: writeKey(config, 'formulateQuestion', state.questionsAsked),
    });
    await deps.store.setNodeStatus(state.nodeId, 'WAITING');
    return { clarification: result.value, questionMessageId: message.id };
  };
}
