/**
 * Spreads the soak's operations evenly at `perSecond` across everyone who asks (a shared schedule): each `slot()`
 * resolves at the next free moment. Pacing a load generator, not synchronising a test.
 */
export class Pace {
  #next = performance.now();

  constructor(private readonly perSecond: number) {}

  async slot(): Promise<void> {
    const now = performance.now();
    this.#next = Math.max(this.#next, now) + 1_000 / this.perSecond;
    const wait = this.#next - now - 1_000 / this.perSecond;
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
