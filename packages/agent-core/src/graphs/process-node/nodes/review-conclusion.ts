import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import { ReviewConclusionReplySchema } from '../replies.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const QUESTION = {
  en: 'Is this conclusion right? Accept it (you may edit it) or tell me what to change.',
  zh: '这个结论可以吗？可以直接接受（也可编辑），或告诉我需要修改什么。',
};

/** Pauses for the person's feedback on the draft; loops back to drafting until they accept. Only interrupts. */
export function reviewConclusion() {
  return async (state: ProcessNodeStateType): Promise<ProcessNodeUpdate> => {
    const reply = askPerson(
      {
        kind: QuestionKind.REVIEW_CONCLUSION,
        question: QUESTION[state.language],
        context: { nodeId: state.nodeId, draft: state.draft, round: state.draftRound },
      },
      ReviewConclusionReplySchema,
    );
    if (reply.action === 'revise') return { conclusionAccepted: false, conclusionFeedback: reply.feedback };
    return {
      conclusionAccepted: true,
      ...(reply.conclusion ? { draft: { ...state.draft!, conclusion: reply.conclusion } } : {}),
    };
  };
}
