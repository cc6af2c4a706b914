/** Gives a replaying stream its turn to read and deliver one page of stored events; call the release when done. */
export type TakeTurn = () => Promise<() => void>;

/** Options of {@link ReplayTurns}. */
export interface ReplayTurnsOptions {
  /** Pages replayed at once on this instance (4). */
  concurrency?: number;
  /** Longest one page keeps its turn, however slowly its client reads (100 ms). */
  holdMs?: number;
}

/**
 * Shares an instance's replay work fairly. A subscription that resumes from `after` replays stored events a page at a
 * time, and each page waits for a turn: at most `concurrency` pages are read and delivered at once, and waiting
 * streams are served round robin by their owner (one person's thousand subscriptions take turns with another's one).
 * Turns start on a fresh turn of the event loop, so requests that arrived meanwhile are read between pages. Without
 * it, one connection's 5,000 replays ran as one burst that held every other client for 48 s. p-limit (the request
 * queue's) is first come first served, which would let one owner's queue ahead hold back everyone else's.
 */
export class ReplayTurns {
  readonly #concurrency: number;
  readonly #holdMs: number;
  #running = 0;
  /** The owner granted last: another waiting owner goes before its next page. */
  #last: string | undefined;
  /** Waiting grants by owner, owners in the order they are served next. */
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(options: ReplayTurnsOptions = {}) {
    this.#concurrency = options.concurrency ?? 4;
    this.#holdMs = options.holdMs ?? 100;
  }

  /** Pages being replayed now and owners waiting (for metrics and tests). */
  get load(): { running: number; waitingOwners: number } {
    return { running: this.#running, waitingOwners: this.#waiting.size };
  }

  /** The turn-taking function of one owner's stream. */
  forOwner(owner: string): TakeTurn {
    return () => this.take(owner);
  }

  /** Waits for a turn for `owner`; resolves with its release (idempotent; also released after `holdMs`). */
  take(owner: string): Promise<() => void> {
    return new Promise((resolve) => {
      // Called with the turn already counted as running (see #serve).
      const grant = () => {
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          clearTimeout(timer);
          this.#running -= 1;
          this.#serve();
        };
        const timer = setTimeout(release, this.#holdMs);
        resolve(release);
      };
      const queue = this.#waiting.get(owner);
      if (queue) queue.push(grant);
      else this.#waiting.set(owner, [grant]);
      this.#serve();
    });
  }

  #serve(): void {
    while (this.#running < this.#concurrency) {
      const next = this.#waiting.entries().next();
      if (next.done) return;
      const [owner, queue] = next.value;
      this.#waiting.delete(owner);
      if (owner === this.#last && this.#waiting.size > 0) {
        this.#waiting.set(owner, queue);
        this.#last = undefined;
        continue;
      }
      const grant = queue.shift();
      // The owner goes to the back: every other waiting owner is served before its next page.
      if (queue.length) this.#waiting.set(owner, queue);
      if (!grant) continue;
      this.#last = owner;
      this.#running += 1;
      setImmediate(grant);
    }
  }
}
