import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import {
  ConfirmUnderstandingReplySchema,
  type UnderstandProblemStateType,
  type UnderstandProblemUpdate,
} from '../state.ts';

const QUESTION = {
  en: 'Did I understand your problem correctly? Confirm, or tell me what to correct.',
  zh: '我对你的问题理解得对吗？请确认，或告诉我哪里需要更正。',
};

/** Pauses for the person to confirm the restatement or correct it. Its only side effect is the interrupt. */
export function askConfirmation() {
  return async (state: UnderstandProblemStateType): Promise<UnderstandProblemUpdate> => {
    const language = state.language ?? 'en';
    const reply = askPerson(
      {
        kind: QuestionKind.CONFIRM_UNDERSTANDING,
        question: QUESTION[language],
        context: { understanding: state.understanding, round: state.rounds, history: state.history },
      },
      ConfirmUnderstandingReplySchema,
    );
    if ('correction' in reply) {
      const round = state.understanding ? [{ understanding: state.understanding, correction: reply.correction }] : [];
      return { correction: reply.correction, confirmed: false, history: round };
    }
    if ('confirm' in reply && reply.edits) {
      return { confirmed: true, understanding: { ...state.understanding!, ...reply.edits } };
    }
    return { confirmed: true };
  };
}
