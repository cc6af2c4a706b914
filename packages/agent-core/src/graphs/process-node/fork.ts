import type { DecompositionStrategy, NodeIntent } from '../../domain/enums.ts';
import type { SubQuestionProposal } from '../../schemas/sub-question-proposal.ts';
import type { ProcessNodeUpdate } from './state.ts';

/**
 * The steps of the node processing graph a finished run can be forked from: the fork re-runs the graph from
 * there, on a copy of the checkpoint that step started from, with the changed input. Each still ends at the person's gate
 * (a proposal to review, a draft to accept): a fork never changes the map without the person.
 */
export const FORKABLE_STEPS = [
  'recognizeIntent',
  'decideStrategy',
  'proposeSubQuestions',
  'reviewProposal',
  'draftConclusion',
] as const;
export type ForkableStep = (typeof FORKABLE_STEPS)[number];

export const isForkableStep = (step: string): step is ForkableStep => FORKABLE_STEPS.some((known) => known === step);

/** What the person changes for the fork; what a step does not use is refused by {@link forkChangeProblem}. */
export interface ForkChange {
  intent?: NodeIntent | null;
  strategy?: DecompositionStrategy | null;
  /** The proposal as it was reviewed, with the person's edited sub-questions (`reviewProposal`). */
  proposal?: SubQuestionProposal | null;
  feedback?: string | null;
}

/** The input each step takes (the rest of a change is refused, so nothing the person wrote is silently ignored). */
const TAKES: Record<ForkableStep, readonly (keyof ForkChange)[]> = {
  recognizeIntent: ['intent', 'strategy'],
  decideStrategy: ['strategy'],
  proposeSubQuestions: ['feedback'],
  reviewProposal: ['proposal'],
  draftConclusion: ['feedback'],
};

/** Why `change` does not fit `step` (the field it names), or null when it does. */
export function forkChangeProblem(step: ForkableStep, change: ForkChange): { field: string; message: string } | null {
  for (const field of ['intent', 'strategy', 'proposal', 'feedback'] as const) {
    const value = change[field];
    if (value === undefined || value === null) continue;
    if (!TAKES[step].includes(field))
      return { field, message: `a fork from ${step} takes ${TAKES[step].join(' or ')}, not ${field}` };
  }
  if (step === 'decideStrategy' && change.intent) return { field: 'intent', message: 'a strategy is for decomposing' };
  if (step === 'reviewProposal' && !change.proposal?.subQuestions.length)
    return { field: 'subQuestions', message: 'give the edited sub-questions' };
  return null;
}

/**
 * The person's change as a state update of the checkpoint the step started from (a copy of it in the fork's
 * thread): LangGraph's `updateState` writes it as the node that ran just before (the one the checkpoint's
 * versions say ran last), so the graph's own edges lead into `step` again from that state. A fork asks the
 * agents, never a consultation's proposal.
 */
export function forkUpdate(step: ForkableStep, change: ForkChange): ProcessNodeUpdate {
  switch (step) {
    case 'recognizeIntent':
      return {
        intentOverride: change.intent ?? null,
        strategyOverride: change.strategy ?? null,
        proposalOverride: null,
      };
    case 'decideStrategy':
      return { strategyOverride: change.strategy ?? null, proposalOverride: null };
    case 'proposeSubQuestions':
      return { proposalFeedback: change.feedback ?? null, proposalOverride: null };
    case 'reviewProposal':
      return { proposal: change.proposal! };
    case 'draftConclusion':
      return { conclusionFeedback: change.feedback ?? null };
  }
}
