/**
 * Admits at most `limit` tasks at once and starts waiting ones in arrival order. Under load, Node's
 * event loop does not serve concurrent requests in arrival order: with 32 clients some waited seconds
 * while others were served again and again. A FIFO admission queue bounds every wait by the queue ahead.
 */
export function createFairQueue(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running--;
    const next = waiting.shift();
    if (next) {
      running++;
      next();
    }
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await task();
      } finally {
        release();
      }
    },
    get waiting() {
      return waiting.length;
    },
  };
}
