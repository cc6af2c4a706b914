/**
 * An unbounded single-consumer queue with an async `next()`. `close()` ends a pending `next()` at once,
 * so a subscription that is cancelled while idle releases its listener immediately.
 */
export class AsyncQueue<T> {
  #items: T[] = [];
  #head = 0;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #closed = false;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head++] as T;
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Drops everything buffered (used when a consumer fell too far behind and will re-read the log). */
  clear(): void {
    this.#items = [];
    this.#head = 0;
  }

  close(): void {
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }
}

/**
 * `generator` as an iterator that calls `finish` (release listeners, close queues) when it ends, when the
 * subscriber leaves (`return`) and when it fails (`throw`): a feed never keeps what it holds after its client.
 */
export function finishing<T>(generator: AsyncGenerator<T>, finish: () => void): AsyncIterableIterator<T> {
  return {
    async next() {
      const result = await generator.next();
      if (result.done) finish();
      return result;
    },
    async return() {
      finish();
      return generator.return(undefined);
    },
    async throw(error) {
      finish();
      return generator.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
