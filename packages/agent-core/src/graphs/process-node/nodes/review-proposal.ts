import { planProposalDependencies } from '../../../dependencies/plan-proposal-dependencies.ts';
import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import { ReviewDecompositionReplySchema } from '../replies.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const QUESTION = {
  en: 'Approve these sub-questions, edit them, or reject them with a reason.',
  zh: '请批准、编辑或否决这些子问题（否决请说明理由）。',
};

/**
 * Pauses for the person to approve (optionally with edits) or reject the proposal before any node exists.
 * Dependencies the proposal names but that cannot be kept (an unknown key, a cycle) are shown to the person as
 * `problems`, never dropped unseen. Its only side effect is the interrupt, so re-running it on resume is safe.
 */
export function reviewProposal() {
  return async (state: ProcessNodeStateType): Promise<ProcessNodeUpdate> => {
    const reply = askPerson(
      {
        kind: QuestionKind.REVIEW_DECOMPOSITION,
        question: QUESTION[state.language],
        context: {
          nodeId: state.nodeId,
          proposal: state.proposal,
          problems: state.proposal ? planProposalDependencies(state.proposal.subQuestions).dropped : [],
          strategy: state.strategy,
          round: state.proposalRound,
        },
      },
      ReviewDecompositionReplySchema,
    );
    if (reply.action === 'reject')
      return {
        proposalApproved: false,
        proposalFeedback: reply.feedback,
        ...(reply.strategy ? { strategyOverride: reply.strategy } : {}),
      };
    if (reply.subQuestions)
      return { proposalApproved: true, proposal: { ...state.proposal!, subQuestions: reply.subQuestions } };
    return { proposalApproved: true };
  };
}
