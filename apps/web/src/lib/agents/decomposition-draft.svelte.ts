import { findCycle } from '@thinkingmap/map-graph';
import type { SubQuestionInput } from '../api/results.ts';

/** A sub-question being edited: reviewDecomposition's input, with its dependencies always listed. */
export type DraftSubQuestion = SubQuestionInput & { dependsOn: string[] };

/** Why the draft cannot be approved yet; `n` numbers a sub-question as the review shows it (from 1). */
export type DraftProblem = { kind: 'empty' } | { kind: 'noQuestion'; n: number } | { kind: 'noGoal'; n: number };

/**
 * A proposed decomposition being reviewed: the person edits, removes or adds sub-questions and says which wait
 * for which before approving; nothing becomes a node until then. Sub-questions are numbered by their place in
 * the list (the "needs 1, 2" hints use the same numbers), dependencies on removed ones are dropped, and a
 * dependency that would close a cycle is refused.
 */
export class DecompositionDraft {
  items = $state<DraftSubQuestion[]>([]);
  #next = 1;

  constructor(proposal: readonly SubQuestionInput[]) {
    this.items = proposal.map((item) => ({ ...item, dependsOn: [...(item.dependsOn ?? [])] }));
  }

  /** What stands in the way of approving, in list order (empty: it can be approved). */
  get problems(): DraftProblem[] {
    if (!this.items.length) return [{ kind: 'empty' }];
    return this.items.flatMap((item, i): DraftProblem[] => [
      ...(item.question.trim() ? [] : [{ kind: 'noQuestion', n: i + 1 } as const]),
      ...(item.goal.trim() ? [] : [{ kind: 'noGoal', n: i + 1 } as const]),
    ]);
  }

  /** Whether every sub-question has a question and a goal, and there is at least one. */
  get valid(): boolean {
    return this.problems.length === 0;
  }

  /** The number the review shows for the sub-question with `key` (from 1), or null once it is removed. */
  numberOf(key: string): number | null {
    const index = this.items.findIndex((item) => item.key === key);
    return index < 0 ? null : index + 1;
  }

  /** Whether the person changed anything. */
  edited(proposal: readonly SubQuestionInput[]): boolean {
    return JSON.stringify(this.toInput()) !== JSON.stringify(new DecompositionDraft(proposal).toInput());
  }

  /** Leaves out the sub-question with `key`. */
  remove(key: string): void {
    this.items = this.items
      .filter((item) => item.key !== key)
      .map((item) => ({ ...item, dependsOn: item.dependsOn.filter((k) => k !== key) }));
  }

  /** Adds an empty sub-question with a fresh key; returns the key. */
  add(): string {
    let key = `new${this.#next++}`;
    while (this.items.some((item) => item.key === key)) key = `new${this.#next++}`;
    this.items = [...this.items, { key, question: '', goal: '', dependsOn: [] }];
    return key;
  }

  /** Whether `key` may wait for `on`: not itself, and not when `on` already waits (through others) for `key`. */
  canDepend(key: string, on: string): boolean {
    if (key === on) return false;
    const edges = this.items.flatMap((item) => item.dependsOn.map((d) => ({ nodeId: item.key, dependsOnId: d })));
    return findCycle(edges, { nodeId: key, dependsOnId: on }) === null;
  }

  /** Makes `key` wait for `on`, or stop waiting; a dependency that would close a cycle is refused (false). */
  toggleDependency(key: string, on: string): boolean {
    const item = this.items.find((i) => i.key === key);
    if (!item) return false;
    if (item.dependsOn.includes(on)) {
      item.dependsOn = item.dependsOn.filter((k) => k !== on);
      return true;
    }
    if (!this.canDepend(key, on)) return false;
    item.dependsOn = [...item.dependsOn, on];
    return true;
  }

  /** The approved sub-questions, trimmed, with dependencies only on sub-questions that remain. */
  toInput(): DraftSubQuestion[] {
    const keys = new Set(this.items.map((item) => item.key));
    return this.items.map((item) => ({
      key: item.key,
      question: item.question.trim(),
      goal: item.goal.trim(),
      dependsOn: item.dependsOn.filter((k) => keys.has(k) && k !== item.key),
    }));
  }
}
