/** Runs a callback before the next frame (requestAnimationFrame in the browser). */
export type Schedule = (callback: () => void) => void;

/**
 * The ids drawn on screen, following a wanted set: ids no longer wanted leave at once, new ones join a batch
 * per frame (nearest first, as the caller orders them), so moving into a new part of a big map never blocks
 * the page for one long task. The first fill, and ids marked urgent (the focused or selected card), join at once.
 */
export class ProgressiveSet {
  ids = $state.raw<ReadonlySet<string>>(new Set());
  #generation = 0;

  constructor(
    private readonly batch = 24,
    private readonly schedule: Schedule = (callback) => requestAnimationFrame(() => callback()),
  ) {}

  /** Follows `wanted` (in the order to draw them), drawing `urgent` ones at once. */
  follow(wanted: readonly string[], urgent: ReadonlySet<string> = new Set()): void {
    const generation = ++this.#generation;
    const want = new Set(wanted);
    const current = [...this.ids].filter((id) => want.has(id));
    const first = this.ids.size === 0;
    const missing = wanted.filter((id) => !this.ids.has(id));
    const now = first ? missing : missing.filter((id) => urgent.has(id));
    let rest = first ? [] : missing.filter((id) => !urgent.has(id));
    this.ids = new Set([...current, ...now]);
    const step = () => {
      if (generation !== this.#generation || rest.length === 0) return;
      this.ids = new Set([...this.ids, ...rest.slice(0, this.batch)]);
      rest = rest.slice(this.batch);
      if (rest.length) this.schedule(step);
    };
    if (rest.length) this.schedule(step);
  }
}
