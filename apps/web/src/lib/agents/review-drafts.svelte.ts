import { SvelteMap } from 'svelte/reactivity';
import { isRecord, recordOf } from '../api/json.ts';
import type { SubQuestionInput } from '../api/results.ts';
import type { OpenQuestion } from './agent-activity.svelte.ts';
import { DecompositionDraft } from './decomposition-draft.svelte.ts';

/** The sub-questions an agent proposes in a review-decomposition question's context. */
export function proposalOf(question: Pick<OpenQuestion, 'context'>): {
  subQuestions: SubQuestionInput[];
  rationale: string;
} {
  const proposal = recordOf(recordOf(question.context).proposal);
  return {
    subQuestions: Array.isArray(proposal.subQuestions) ? proposal.subQuestions.filter(isSubQuestion) : [],
    rationale: typeof proposal.rationale === 'string' ? proposal.rationale : '',
  };
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isSubQuestion(value: unknown): value is SubQuestionInput {
  return (
    isRecord(value) &&
    typeof value.key === 'string' &&
    typeof value.question === 'string' &&
    typeof value.goal === 'string' &&
    (value.dependsOn === undefined || value.dependsOn === null || isStrings(value.dependsOn))
  );
}

/** A dependency the agent proposed but that could not be kept, as the server flags it in the question's context. */
export interface ProposalProblem {
  from: string;
  to: string;
  reason: 'unknown' | 'self' | 'cycle';
  path?: string[];
}

/** The problems flagged in a review-decomposition question's proposal (a cycle, an unknown key), if any. */
export function proposalProblemsOf(question: Pick<OpenQuestion, 'context'>): ProposalProblem[] {
  const problems = recordOf(question.context).problems;
  return Array.isArray(problems) ? problems.filter(isProblem) : [];
}

const REASONS: readonly unknown[] = ['unknown', 'self', 'cycle'];

function isProblem(value: unknown): value is ProposalProblem {
  return (
    isRecord(value) &&
    typeof value.from === 'string' &&
    typeof value.to === 'string' &&
    REASONS.includes(value.reason) &&
    (value.path === undefined || isStrings(value.path))
  );
}

/**
 * The drafts of the proposals under review on a map, one per review-decomposition question: the panel's review
 * edits it and the canvas previews it as ghost cards, so both show the same thing, and nothing typed is lost
 * when the panel closes or another node is opened. Kept in step with the open questions by {@link sync}
 * (called from an effect: a draft is made outside any derived value, so every reader follows its edits).
 */
export class ReviewDrafts {
  #drafts = new SvelteMap<string, DecompositionDraft>();

  /** Makes a draft for each review question that has none, and forgets the drafts of questions that are gone. */
  sync(questions: Iterable<Pick<OpenQuestion, 'requestId' | 'kind' | 'context'>>): void {
    const open = new Set<string>();
    for (const question of questions) {
      if (question.kind !== 'review-decomposition') continue;
      open.add(question.requestId);
      if (!this.#drafts.has(question.requestId))
        this.#drafts.set(question.requestId, new DecompositionDraft(proposalOf(question).subQuestions));
    }
    for (const id of [...this.#drafts.keys()]) if (!open.has(id)) this.#drafts.delete(id);
  }

  /** The draft of a review question's proposal, once {@link sync} made it. */
  get(requestId: string): DecompositionDraft | undefined {
    return this.#drafts.get(requestId);
  }
}
