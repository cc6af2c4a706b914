import type { DecompositionStrategy, NodeIntent } from '../../domain/enums.ts';
import type { SubQuestionProposal } from '../../schemas/sub-question-proposal.ts';
import type { ProcessNodeUpdate } from './state.ts';

/**
 * The steps of the node processing graph a finished run can be forked from: the fork re-runs the graph from
 * there, on a copy of the run's kept checkpoint, with the changed input. Each still ends at the person's gate
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

export const isForkableStep = (step: string): step is ForkableStep =>
  (FORKABLE_STEPS as readonly string[]).includes(step);

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

// Everything a step after intent recognition wrote: a fork from before it starts that part again.
const AFTER_INTENT: ProcessNodeUpdate = {
  intent: null,
  intentReason: null,
  strategy: null,
  proposalOverride: null,
  proposal: null,
  proposalRound: 0,
  proposalFeedback: null,
  proposalApproved: false,
  proposedSubQuestions: null,
  createdNodeIds: [],
  draft: null,
  draftRound: 0,
  conclusionFeedback: null,
  conclusionAccepted: false,
  modelConclusionKind: null,
  outcome: null,
};

/**
 * The state update that puts a copy of a finished run's checkpoint just before `step`, with the change: written
 * as if `asNode` had just produced it, so the graph's own edges lead into `step` (LangGraph `updateState`).
 */
export function forkUpdate(step: ForkableStep, change: ForkChange): { values: ProcessNodeUpdate; asNode: string } {
  switch (step) {
    case 'recognizeIntent':
      return {
        values: { ...AFTER_INTENT, intentOverride: change.intent ?? null, strategyOverride: change.strategy ?? null },
        asNode: 'checkDependencies',
      };
    case 'decideStrategy':
      return {
        values: { ...AFTER_INTENT, intent: 'DECOMPOSE', strategyOverride: change.strategy ?? null },
        asNode: 'recognizeIntent',
      };
    case 'proposeSubQuestions':
      return {
        values: {
          proposalApproved: false,
          proposalFeedback: change.feedback ?? null,
          createdNodeIds: [],
          outcome: null,
        },
        asNode: 'reviewProposal',
      };
    case 'reviewProposal':
      return {
        values: { proposal: change.proposal!, proposalApproved: false, createdNodeIds: [], outcome: null },
        asNode: 'proposeSubQuestions',
      };
    case 'draftConclusion':
      return {
        values: { conclusionAccepted: false, conclusionFeedback: change.feedback ?? null, outcome: null },
        asNode: 'reviewConclusion',
      };
  }
}
