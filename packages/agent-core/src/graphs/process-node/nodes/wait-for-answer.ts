import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import { ClarifyReplySchema } from '../replies.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** Pauses the run with the clarifying question and why it is needed. Only interrupts. */
export function waitForAnswer() {
  return async (state: ProcessNodeStateType): Promise<ProcessNodeUpdate> => {
    const reply = askPerson(
      {
        kind: QuestionKind.CLARIFY,
        question: state.clarification!.question,
        context: { nodeId: state.nodeId, why: state.clarification!.why, messageId: state.questionMessageId },
      },
      ClarifyReplySchema,
    );
    return { clarifyAnswer: 'answer' in reply ? reply.answer : null, clarifySkipped: 'skipped' in reply };
  };
}
