import type { ProposedSubQuestion } from '../api/agent-types.ts';

/** The sub-questions as reviewDecomposition takes them. */
export interface SubQuestionInput {
  key: string;
  question: string;
  goal: string;
  dependsOn: string[];
}

/**
 * A proposed decomposition being reviewed: the person edits, removes or adds sub-questions before
 * approving; nothing becomes a node until then. Dependencies on removed sub-questions are dropped.
 */
export class DecompositionDraft {
  items = $state<SubQuestionInput[]>([]);
  #next = 1;

  constructor(proposal: readonly ProposedSubQuestion[]) {
    this.items = proposal.map((item) => ({ ...item, dependsOn: [...(item.dependsOn ?? [])] }));
  }

  /** Whether every sub-question has a question and a goal, and there is at least one. */
  get valid(): boolean {
    return this.items.length > 0 && this.items.every((item) => item.question.trim() && item.goal.trim());
  }

  /** Whether the person changed anything. */
  edited(proposal: readonly ProposedSubQuestion[]): boolean {
    return JSON.stringify(this.toInput()) !== JSON.stringify(new DecompositionDraft(proposal).toInput());
  }

  /** Leaves out the sub-question with `key`. */
  remove(key: string): void {
    this.items = this.items
      .filter((item) => item.key !== key)
      .map((item) => ({ ...item, dependsOn: item.dependsOn.filter((k) => k !== key) }));
  }

  /** Adds an empty sub-question with a fresh key. */
  add(): void {
    let key = `new${this.#next++}`;
    while (this.items.some((item) => item.key === key)) key = `new${this.#next++}`;
    this.items = [...this.items, { key, question: '', goal: '', dependsOn: [] }];
  }

  /** The approved sub-questions, trimmed, with dependencies only on sub-questions that remain. */
  toInput(): SubQuestionInput[] {
    const keys = new Set(this.items.map((item) => item.key));
    return this.items.map((item) => ({
      key: item.key,
      question: item.question.trim(),
      goal: item.goal.trim(),
      dependsOn: item.dependsOn.filter((k) => keys.has(k) && k !== item.key),
    }));
  }
}
