import { describe, expect, it } from 'vitest';
import { createFairQueue } from './fair-queue.ts';

/** A task that records when it starts and finishes only when the test lets it. */
function gatedTask(name: string, started: string[]) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const run = () => {
    started.push(name);
    return done.then(() => name);
  };
  return { run, finish: () => finish() };
}

describe('fair request queue', () => {
  it('should run at most `limit` tasks at once and admit waiting ones in arrival order', async () => {
    const queue = createFairQueue(2);
    const started: string[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) => gatedTask(`t${i}`, started));
    const results = tasks.map((task) => queue(task.run));
    await expect.poll(() => started).toEqual(['t0', 't1']);
    expect(queue.pendingCount).toBe(4);

    // Finishing a later task first still admits the oldest waiting one.
    tasks[1]!.finish();
    await expect.poll(() => started).toEqual(['t0', 't1', 't2']);
    tasks[0]!.finish();
    await expect.poll(() => started).toEqual(['t0', 't1', 't2', 't3']);
    expect(queue.activeCount).toBe(2);
    for (const task of tasks) task.finish();
    expect(await Promise.all(results)).toEqual(tasks.map((_, i) => `t${i}`));
    expect(started).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
  });

  it('should free the slot of a task that fails', async () => {
    const queue = createFairQueue(1);
    const failing = queue(() => Promise.reject(new Error('boom')));
    const next = queue(() => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
