import {
  ADD_DIVERGENT_FEEDBACK,
  ADD_DIVERGENT_TASK,
  DIVERGENT_SKILLS,
  SET_DIVERGENT_THRESHOLD,
  SKIP_DIVERGENT_TASK,
  START_DIVERGENT,
  STOP_DIVERGENT,
} from '@thinkingmap/client';
import { attempt } from '@thinkingmap/client/testing';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/commands/event-log.ts';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import {
  divergentModel,
  heldAnswer,
  readSession,
  rootOf,
  task,
  waitForSession,
  waitForSessionStatus,
} from './divergent-helpers.ts';

/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

/** The session's level-1 tasks by name. */
const statusOf = (session: Awaited<ReturnType<typeof readSession>>, name: string) =>
  session.levels.flatMap((l) => l.tasks).find((t) => t.name === name)?.status;

describe('steering a divergent session through the API', { timeout: SESSION_MS }, () => {
  it('should skip a running task, take a new threshold, feedback and an added task into account, then refuse steering once finished', async () => {
    const slow = heldAnswer('slow result, never used');
    const late = heldAnswer('late result');
    const model = await divergentModel({
      plans: [[task('quick'), task('slow'), task('late')], [task('rent')]],
      scores: [0.6, 0.6],
      timeoutMs: 120_000,
      task: (name) => (name === 'slow' ? slow.reply : name === 'late' ? late.reply : undefined),
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSession(
        client,
        run.id,
        (s) => statusOf(s, 'quick') === 'DONE' && s.runningTasks.length === 2,
        'the quick task to finish while the two others run',
      );

      const skipped = await call(client, SKIP_DIVERGENT_TASK, { input: { sessionId: run.id, taskKey: 'L1.T2' } });
      expect(skipped.status).toBe('RUNNING');
      const threshold = await call(client, SET_DIVERGENT_THRESHOLD, { input: { sessionId: run.id, threshold: 0.55 } });
      expect(threshold.threshold).toBe(0.55);
      const fed = await call(client, ADD_DIVERGENT_FEEDBACK, {
        input: { sessionId: run.id, text: 'focus on the north side of the river' },
      });
      expect(fed.feedback.map((f) => f.text)).toEqual(['focus on the north side of the river']);
      const added = await call(client, ADD_DIVERGENT_TASK, {
        input: { sessionId: run.id, name: 'parking', query: 'count parking spaces', skill: 'commonQnA', priority: 1 },
      });
      expect(added.addedTasks).toMatchObject([{ name: 'parking', priority: 1, level: null }]);

      // The skipped task is aborted (its model call ends) and marked SKIPPED; the level goes on.
      const after = await waitForSession(client, run.id, (s) => statusOf(s, 'slow') === 'SKIPPED' && s, 'the skip');
      expect(after.levels[0]!.tasks.find((t) => t.key === 'L1.T2')?.reason).toBe('skipped by the person');
      expect(statusOf(after, 'late')).toBe('RUNNING');
      late.release();
      await waitForSessionStatus(client, run.id, 'COMPLETED');

      const session = await readSession(client, run.id);
      // 0.6 reached the new threshold 0.55 after level 1, but the person's task still ran, in level 2, first.
      expect(session.levels.map((l) => l.tasks.map((t) => [t.name, t.status, t.addedByPerson]))).toEqual([
        [
          ['quick', 'DONE', false],
          ['slow', 'SKIPPED', false],
          ['late', 'DONE', false],
        ],
        [
          ['parking', 'DONE', true],
          ['rent', 'DONE', false],
        ],
      ]);
      expect(session.addedTasks).toMatchObject([{ name: 'parking', level: 2 }]);
      expect(session.scores.map((s) => s.threshold)).toEqual([0.55, 0.55]);
      expect(session.note).toBe('The completion score 0.6 reached the threshold 0.55; the final output is written.');

      // The feedback reached the very next summary's prompt, and only that one.
      const summaries = model.prompts().filter((p) => /summary agent/.test(p));
      expect(summaries.map((p) => p.includes('focus on the north side of the river'))).toEqual([false, true, false]);
      const slowCalls = model.prompts().filter((p) => p.includes('Task: slow'));
      expect(slowCalls).toHaveLength(1);

      const log = await readEvents(server.db.read, mapId, 0, 5000);
      const steered = log.filter((e) => e.type === 'DivergentSteered').map((e) => e.payload);
      expect(steered.map((p) => ('action' in p ? p.action : null))).toEqual([
        'SKIP_TASK',
        'SET_THRESHOLD',
        'ADD_FEEDBACK',
        'ADD_TASK',
      ]);

      // Steering a finished session: a typed error, and nothing is recorded.
      const before = log.length;
      for (const [document, input] of [
        [STOP_DIVERGENT, { sessionId: run.id }],
        [SKIP_DIVERGENT_TASK, { sessionId: run.id, taskKey: 'L2.T1' }],
        [SET_DIVERGENT_THRESHOLD, { sessionId: run.id, threshold: 0.3 }],
        [ADD_DIVERGENT_FEEDBACK, { sessionId: run.id, text: 'too late' }],
        [ADD_DIVERGENT_TASK, { sessionId: run.id, name: 'x', query: 'y', skill: 'commonQnA' }],
      ] as const) {
        const refused = await attempt(client, document as typeof STOP_DIVERGENT, { input: input as never });
        expect(refused).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
      }
      expect(await server.db.read.event.count({ where: { mapId } })).toBe(before);
    } finally {
      slow.release();
      late.release();
      await server.close();
      await model.server.close();
    }
  });

  it('should stop mid-level: finished tasks kept, the running one skipped, a final output from what exists', async () => {
    const slow = heldAnswer('never finished');
    const model = await divergentModel({
      plans: [[task('quick'), task('slow')], [task('never planned')]],
      scores: [0.1],
      timeoutMs: 120_000,
      task: (name) => (name === 'slow' ? slow.reply : undefined),
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSession(
        client,
        run.id,
        (s) => statusOf(s, 'quick') === 'DONE' && statusOf(s, 'slow') === 'RUNNING',
        'the quick task to finish while the slow one runs',
      );
      const stopped = await call(client, STOP_DIVERGENT, { input: { sessionId: run.id } });
      expect(stopped.stopRequested).toBe(true);
      const again = await attempt(client, STOP_DIVERGENT, { input: { sessionId: run.id } });
      expect(again).toMatchObject({ __typename: 'ConflictError' });

      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session).toMatchObject({ outcome: 'FINISHED', stopRequested: true });
      expect(session.note).toBe('The person stopped the session; the final output is written from what was found.');
      expect(session.levels[0]!.tasks.map((t) => [t.name, t.status, t.reason])).toEqual([
        ['quick', 'DONE', null],
        ['slow', 'SKIPPED', 'the person stopped the session'],
      ]);
      // The level's summary converged the finished task only; no further level was planned or scored.
      const nodes = await server.db.read.node.findMany({ where: { mapId }, orderBy: { createdAt: 'asc' } });
      const summary1 = nodes.find((n) => n.divergentRole === 'SUMMARY' && n.divergentLevel === 1)!;
      const converged = await server.db.read.dependency.findMany({ where: { nodeId: summary1.id } });
      expect(converged.map((d) => nodes.find((n) => n.id === d.dependsOnId)?.question)).toEqual(['quick']);
      expect(nodes.find((n) => n.id === session.finalNodeId)).toMatchObject({ divergentRole: 'FINAL' });
      expect(model.calls.get('divergent_plan')).toBe(1);
      expect(model.calls.get('completion_evaluation')).toBeUndefined();
      expect(model.prompts().filter((p) => p.includes('Task: slow'))).toHaveLength(1);
    } finally {
      slow.release();
      await server.close();
      await model.server.close();
    }
  });

  it('should answer a waiting review with stop, and refuse bad steering with typed errors', async () => {
    const model = await divergentModel({ plans: [[task('market')]], scores: [] });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
      await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
      const before = await server.db.read.event.count({ where: { mapId } });

      const refusals = [
        [SKIP_DIVERGENT_TASK, { sessionId: run.id, taskKey: 'L9.T9' }, 'NotFoundError'],
        [SKIP_DIVERGENT_TASK, { sessionId: run.id, taskKey: 'first' }, 'ValidationError'],
        [SET_DIVERGENT_THRESHOLD, { sessionId: run.id, threshold: 1.5 }, 'ValidationError'],
        [ADD_DIVERGENT_FEEDBACK, { sessionId: run.id, text: '   ' }, 'ValidationError'],
        [ADD_DIVERGENT_TASK, { sessionId: run.id, name: 'web', query: 'news', skill: 'webSearch' }, 'ValidationError'],
        [STOP_DIVERGENT, { sessionId: rootId }, 'NotFoundError'],
      ] as const;
      for (const [document, input, typename] of refusals) {
        const refused = await attempt(client, document as typeof STOP_DIVERGENT, { input: input as never });
        expect(refused.__typename, JSON.stringify(input)).toBe(typename);
      }
      const { client: bob } = server.connect(server.bob.token);
      const forbidden = await attempt(bob, STOP_DIVERGENT, { input: { sessionId: run.id } });
      expect(['ForbiddenError', 'NotFoundError']).toContain(forbidden.__typename);
      expect(await server.db.read.event.count({ where: { mapId } })).toBe(before);

      const skills = await call(client, DIVERGENT_SKILLS);
      expect(skills.find((s) => s.name === 'webSearch')).toEqual({
        name: 'webSearch',
        available: false,
        reason: 'NO_SEARCH_PROVIDER',
      });

      await call(client, STOP_DIVERGENT, { input: { sessionId: run.id } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session.levels).toEqual([]);
      expect(session.note).toBe('The person stopped the session; the final output is written from what was found.');
      const review = await server.db.read.agentQuestion.findFirstOrThrow({ where: { runId: run.id } });
      expect(review).toMatchObject({ status: 'ANSWERED', reply: { action: 'stop' } });
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
