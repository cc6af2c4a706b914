import { CREATE_MAP, REPLY_TO_AGENT, START_DIVERGENT } from '@thinkingmap/client';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/commands/event-log.ts';
import { eventually, waitForQuestion } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, rootOf, task, waitForSession, waitForSessionStatus } from './divergent-helpers.ts';

/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe('a divergent session asks only what its design asks', { timeout: SESSION_MS }, () => {
  it('should explore a Chinese DIVERGENT map to its final output without any conclusion review or other agent', async () => {
    const model = await divergentModel({
      plans: [[task('市场规模'), task('租金')], [task('客流')]],
      scores: [0.5, 0.95],
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const map = await call(client, CREATE_MAP, {
        input: { problem: '第二家咖啡店开在哪里？', mode: 'DIVERGENT', language: 'zh' },
      });
      const confirm = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
      await call(client, REPLY_TO_AGENT, { input: { requestId: confirm.requestId, accept: true } });

      const runId = (
        await eventually(
          () => server.db.read.agentRun.findFirst({ where: { mapId: map.id, agent: 'divergent' } }),
          'the divergent run to start',
          60_000,
        )
      ).id;
      const session = await waitForSession(
        client,
        runId,
        (s) => s.status === 'COMPLETED' && s,
        'the divergent session to finish',
      );
      expect(session).toMatchObject({ outcome: 'FINISHED', level: 2 });
      // Whatever the session's nodes set off has had its turn.
      await server.app.engine.idle();

      const log = await readEvents(server.db.read, map.id, 0, 5000);
      const asked = log.flatMap((e) => (e.type === 'AgentQuestion' ? [e.payload.question.kind] : []));
      expect(asked).toEqual(['confirm-understanding']);
      const runs = await server.db.read.agentRun.findMany({ where: { mapId: map.id }, select: { agent: true } });
      expect(runs.map((r) => r.agent).sort()).toEqual(['divergent', 'understand-problem']);
      // The root and every node of the session are settled: nothing is left waiting for the person.
      const nodes = await server.db.read.node.findMany({ where: { mapId: map.id } });
      expect(nodes.filter((n) => n.status === 'RUNNING' || n.status === 'WAITING')).toEqual([]);
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should ask only each level’s review when the person asked for it, on a Chinese map', async () => {
    const model = await divergentModel({
      plans: [[task('市场规模'), task('租金')], [task('客流')]],
      scores: [0.5, 0.95],
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, '第二家咖啡店开在哪里？', 'zh');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
      for (const level of [1, 2]) {
        const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
        expect(review.context).toMatchObject({ level });
        await call(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, reply: { action: 'approve' } } });
      }
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      await server.app.engine.idle();

      const log = await readEvents(server.db.read, mapId, 0, 5000);
      const asked = log.flatMap((e) => (e.type === 'AgentQuestion' ? [e.payload.question.kind] : []));
      expect(asked).toEqual(['review-divergent-tasks', 'review-divergent-tasks']);
      const runs = await server.db.read.agentRun.findMany({ where: { mapId }, select: { agent: true } });
      expect(runs.map((r) => r.agent)).toEqual(['divergent']);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
