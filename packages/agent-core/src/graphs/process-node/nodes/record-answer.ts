import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const NO_ANSWER = {
  en: 'The question expired without an answer; going on with what is known.',
  zh: '问题已过期，未获回答；将基于已有信息继续。',
};
const SKIPPED = {
  en: 'You skipped this question; going on with what is known.',
  zh: '你跳过了这个问题；将基于已有信息继续。',
};

/**
 * Posts the person's answer as a reply to the question (a `parentId` thread), or a notice when they skipped it
 * or it expired.
 */
export function recordAnswer(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const answered = state.clarifyAnswer !== null;
    await deps.store.postMessage({
      nodeId: state.nodeId,
      conversation: state.conversation,
      parentId: state.questionMessageId,
      role: answered ? 'USER' : 'SYSTEM',
      kind: answered ? 'TEXT' : 'NOTICE',
      content: state.clarifyAnswer ?? (state.clarifySkipped ? SKIPPED : NO_ANSWER)[state.language],
      idempotencyKey: writeKey(config, 'recordAnswer', state.questionsAsked),
    });
    return {
      questionsAsked: state.questionsAsked + 1,
      clarification: null,
      clarifyAnswer: null,
      clarifySkipped: false,
      // An unanswered question is not asked again: conclude with what is known.
      ...(answered ? {} : { intentOverride: 'CONCLUDE' as const }),
    };
  };
}
