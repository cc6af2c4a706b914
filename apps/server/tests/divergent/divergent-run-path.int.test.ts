import { RUN_PATH, START_DIVERGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, heldAnswer, readSession, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

const [provider] = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe('the path of a divergent run', { timeout: SESSION_MS }, () => {
  it('should show a level’s 8 parallel tasks as 8 visits of one round, each with its own outcome and duration, and the next level as round 2', async () => {
    const eight = Array.from({ length: 8 }, (_, i) => task(`t${i + 1}`));
    const held = heldAnswer('result of t5, held');
    const model = await divergentModel({
      plans: [eight, [task('u1'), task('u2')], []],
      scores: [0.5, 0.95],
      timeoutMs: 60_000,
      task: (name) =>
        name === 't3' ? { status: 400, message: 'the source is unreachable' } : name === 't5' ? held.reply : undefined,
    });
    const server = await startTestServer(provider!, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });

      // While t5 is held, the other seven end: the run is still in its tasks, and t5's visit still runs.
      const keyOf = async (name: string) =>
        (await readSession(client, run.id)).levels.flatMap((l) => l.tasks).find((t) => t.name === name)?.key;
      const tasksOf = (path: Awaited<ReturnType<typeof readPath>>, round: number) =>
        path.steps.filter((s) => s.step === 'runTask' && s.round === round);
      const readPath = async () => {
        const path = await call(client, RUN_PATH, { runId: run.id });
        if (path.__typename !== 'RunPath') throw new Error(path.__typename);
        return path;
      };
      const waiting = await eventually(
        async () => {
          const path = await readPath();
          const ended = tasksOf(path, 1).filter((s) => s.outcome !== null);
          return ended.length === 7 && path;
        },
        'the seven tasks other than the held one to end',
        60_000,
      );
      const slowKey = await keyOf('t5');
      expect(waiting.current).toBe('runTask');
      expect(tasksOf(waiting, 1).find((s) => s.outcome === null)?.branch).toBe(slowKey);
      const releasedAt = Date.now();
      held.release();
      await waitForSessionStatus(client, run.id, 'COMPLETED');

      const path = await readPath();
      expect(path.current).toBeNull();
      const first = tasksOf(path, 1);
      const second = tasksOf(path, 2);
      const session = await readSession(client, run.id);
      const [level1, level2] = session.levels;
      expect(first.map((s) => s.branch).sort()).toEqual(level1!.tasks.map((t) => t.key).sort());
      expect(second.map((s) => s.branch).sort()).toEqual(level2!.tasks.map((t) => t.key).sort());
      expect(path.steps.filter((s) => s.step === 'runTask')).toHaveLength(10);
      // Each task's visit has its own outcome and duration (a failing task is a step done: its task FAILED),
      // the held one as long as it was held.
      for (const visit of [...first, ...second]) {
        expect(visit.outcome, visit.branch!).toBe('done');
        expect(visit.durationMs, visit.branch!).not.toBeNull();
      }
      const slow = first.find((s) => s.branch === slowKey)!;
      expect(slow.durationMs!).toBeGreaterThanOrEqual(releasedAt - Date.parse(slow.enteredAt) - 2);
      expect(slow.answer).toContain('result of t5, held');
      expect(first.find((s) => s.branch === level1!.tasks[0]!.key)?.answer).toContain('result of t1');
      // The steps around the tasks ran once per level: the second level is round 2 of each.
      const once = path.steps.filter((s) => s.step !== 'runTask').map((s) => `${s.step} ${s.round}`);
      expect(once).toEqual([
        'readIntent 1',
        'writeSummary 1',
        'planTasks 1',
        'createTasks 1',
        'closeLevel 1',
        'writeSummary 2',
        'evaluateCompletion 1',
        'planTasks 2',
        'createTasks 2',
        'closeLevel 2',
        'writeSummary 3',
        'evaluateCompletion 2',
        'writeFinal 1',
      ]);
      expect(path.steps.filter((s) => s.step !== 'runTask').every((s) => s.branch === null)).toBe(true);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
