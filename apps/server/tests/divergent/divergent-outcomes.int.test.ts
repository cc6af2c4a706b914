import { CREATE_MAP, NODE_DECISIONS, REPLY_TO_AGENT, START_DIVERGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { eventually, waitForQuestion } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import {
  divergentModel,
  readSession,
  rootOf,
  task,
  waitForSession,
  waitForSessionStatus,
} from './divergent-helpers.ts';

const providers = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe('how divergent sessions end, through the API', { timeout: SESSION_MS }, () => {
  it('should run the 8 of highest priority of 12 proposed, go on past a failing one, and end on an empty plan', async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => task(`t${i + 1}`, i < 8 ? 4 : 2));
    const model = await divergentModel({
      plans: [twelve, []],
      scores: [0.5],
      task: (name) => (name === 't3' ? { status: 400, message: 'the source is unreachable' } : undefined),
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session.levels).toHaveLength(1);
      const tasks = session.levels[0]!.tasks;
      expect(tasks.map((t) => t.name)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
      expect(tasks.filter((t) => t.status === 'DONE')).toHaveLength(7);
      const failed = tasks.find((t) => t.name === 't3')!;
      expect(failed.status).toBe('FAILED');
      expect(failed.reason).toContain('the source is unreachable');
      expect(session.droppedTasks.map((d) => [d.name, d.reason])).toEqual(
        ['t9', 't10', 't11', 't12'].map((name) => [name, 'over the limit of 8 parallel tasks per level']),
      );
      expect(session).toMatchObject({ outcome: 'FINISHED', scores: [{ overall: 0.5 }] });
      expect(session.note).toBe(
        'The planner proposed no further task; the final output is written from what was found.',
      );

      const nodes = await server.db.read.node.findMany({ where: { mapId } });
      expect(nodes.find((n) => n.question === 't3')).toMatchObject({ status: 'FAILED', divergentRole: 'TASK' });
      const summary1 = nodes.find((n) => n.divergentRole === 'SUMMARY' && n.divergentLevel === 1)!;
      expect(await server.db.read.dependency.count({ where: { nodeId: summary1.id } })).toBe(7);
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should stop after 5 levels below the threshold with the final output and a note', async () => {
    const model = await divergentModel({
      plans: [1, 2, 3, 4, 5, 6].map((n) => [task(`level ${n} task`)]),
      scores: [0.1, 0.2, 0.3, 0.4, 0.5],
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session.scores.map((s) => s.overall)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
      expect(session.levels.map((l) => l.level)).toEqual([1, 2, 3, 4, 5]);
      expect(session.finalNodeId).not.toBeNull();
      expect(session.note).toBe(
        'Stopped after 5 levels below the threshold 0.9 (last score 0.5); the final output is written from what was found.',
      );
      expect(model.calls.get('divergent_plan')).toBe(5);
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should end with a notice and no final output when every task of a level fails', async () => {
    const model = await divergentModel({
      plans: [[task('a'), task('b')]],
      scores: [],
      task: () => ({ status: 400, message: 'refused' }),
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session).toMatchObject({ outcome: 'ALL_FAILED', finalNodeId: null, scores: [] });
      expect(session.note).toBe('Every task of level 1 failed; the divergent session has ended.');
      expect(session.levels[0]!.tasks.map((t) => t.status)).toEqual(['FAILED', 'FAILED']);
      expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'FINAL' } })).toBe(0);
      expect(await server.db.read.message.count({ where: { kind: 'NOTICE', content: session.note! } })).toBe(1);
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should start a divergent session on the root of a DIVERGENT map once the person confirms the understanding', async () => {
    const model = await divergentModel({ plans: [[task('market')], []], scores: [0.95] });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const map = await call(client, CREATE_MAP, {
        input: { problem: 'Where should the second café open?', mode: 'DIVERGENT', language: 'en' },
      });
      const confirm = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
      // Nothing explores before the person confirms.
      expect(await server.db.read.agentRun.count({ where: { mapId: map.id, agent: 'divergent' } })).toBe(0);
      await call(client, REPLY_TO_AGENT, { input: { requestId: confirm.requestId, accept: true } });

      const session = await waitForSession(
        client,
        await eventuallyRun(server.db, map.id),
        (s) => s.status === 'COMPLETED' && s,
        'the divergent session to finish',
      );
      const root = await server.db.read.node.findFirstOrThrow({ where: { mapId: map.id, parentId: null } });
      expect(session).toMatchObject({ nodeId: root.id, outcome: 'FINISHED' });
      const node = await call(client, NODE_DECISIONS, { id: root.id, kind: 'AUTO_START' });
      expect(node.decisions).toMatchObject([
        {
          runId: session.id,
          choice: { trigger: 'DIVERGENT_MAP' },
          decidedBy: 'SYSTEM',
          reason:
            'you confirmed the understanding of a map created in divergent mode, so divergent exploration starts on its root',
        },
      ]);
      // One session, started once, even though the map's later events went past the same hook.
      expect(await server.db.read.agentRun.count({ where: { mapId: map.id, agent: 'divergent' } })).toBe(1);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});

describe.each(providers)(
  'a divergent session whose later level fails whole, on %s',
  { timeout: SESSION_MS },
  (provider) => {
    for (const [language, question, note] of [
      [
        'en',
        'Where should the second café open?',
        "Every task of level 2 failed; the final output is written from the earlier levels' results.",
      ],
      ['zh', '第二家咖啡店开在哪里？', '第 2 层的所有任务都失败了，最终输出基于之前各层的结果生成。'],
    ] as const)
      it(`should write the final output from the earlier levels' results, with a note (${language})`, async () => {
        const model = await divergentModel({
          plans: [[task('market')], [task('a'), task('b')]],
          scores: [0.5],
          task: (name) => (name === 'a' || name === 'b' ? { status: 400, message: 'refused' } : undefined),
        });
        const server = await startTestServer(provider, { model: model.model });
        try {
          const { client } = server.connect(server.alice.token);
          const { mapId, rootId } = await rootOf(client, question, language);
          const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
          await waitForSessionStatus(client, run.id, 'COMPLETED');
          const session = await readSession(client, run.id);
          expect(session).toMatchObject({ outcome: 'FINISHED', note, scores: [{ overall: 0.5 }] });
          expect(session.levels.map((l) => l.tasks.map((t) => t.status))).toEqual([['DONE'], ['FAILED', 'FAILED']]);
          const final = await server.db.read.node.findUniqueOrThrow({ where: { id: session.finalNodeId! } });
          expect(final).toMatchObject({ divergentRole: 'FINAL', status: 'COMPLETED', divergentLevel: 1 });
          expect(
            model
              .prompts()
              .some((p) => /final output of a divergent|最终输出/.test(p) && p.includes('result of market')),
          ).toBe(true);
          // No summary converges the failed level.
          expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'SUMMARY' } })).toBe(2);
        } finally {
          await server.close();
          await model.server.close();
        }
      });
  },
);

/** The divergent run of a map, once it exists. */
async function eventuallyRun(db: Awaited<ReturnType<typeof startTestServer>>['db'], mapId: string): Promise<string> {
  const run = await eventually(
    () => db.read.agentRun.findFirst({ where: { mapId, agent: 'divergent' } }),
    'the divergent run to start',
    60_000,
  );
  return run.id;
}
