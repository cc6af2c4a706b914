/**
 * Reads something again each time it may have changed, one read at a time, so that what is shown ends with an
 * answer read after the latest change. Reads that overlap are not enough: urql shares one answer among identical
 * queries in flight, so a read asked for while an identical one is on its way is answered with that earlier read's
 * result — from before the change that asked for it — and nothing asks again. Here a change during a read makes
 * one more read follow it; every answer is applied, in the order the reads were made.
 */
export class FreshReads<T> {
  #running = false;
  #stale = false;
  #stopped = false;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly apply: (value: T) => void,
  ) {}

  /**
   * Reads for what `key()` names when the read starts (a map's, a run's or a node's id), and applies an answer
   * only while `key()` still names the same: an answer for the map the page has left is dropped, not shown.
   */
  static keyed<K, T>(
    key: () => K,
    read: (key: K) => Promise<T>,
    apply: (value: T, key: K) => void,
  ): FreshReads<{ key: K; value: T }> {
    return new FreshReads(
      () => {
        const at = key();
        return read(at).then((value) => ({ key: at, value }));
      },
      ({ key: at, value }) => {
        if (at === key()) apply(value, at);
      },
    );
  }

  /** Something may have changed: read now, or once the read in flight has ended. */
  changed(): void {
    if (this.#stopped) return;
    if (this.#running) this.#stale = true;
    else void this.#run();
  }

  /** No more reads; an answer still on its way is dropped. */
  stop(): void {
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      do {
        this.#stale = false;
        const value = await this.read();
        if (this.#stopped) return;
        this.apply(value);
      } while (this.#stale && !this.#stopped);
    } finally {
      this.#running = false;
    }
  }
}
