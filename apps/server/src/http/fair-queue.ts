import pLimit, { type LimitFunction } from 'p-limit';

/** Runs tasks with at most `limit` at once; see {@link createFairQueue}. */
export type FairQueue = LimitFunction;

/**
 * Admits at most `limit` tasks at once and starts waiting ones in arrival order (p-limit's queue is FIFO).
 * Under load, Node's event loop does not serve concurrent requests in arrival order: with 32 clients some
 * waited seconds while others were served again and again. A FIFO admission queue bounds every wait by the
 * queue ahead of it.
 */
export function createFairQueue(limit: number): FairQueue {
  return pLimit(limit);
}
