import { CREATE_MAP, CREATE_NODE, NODE } from '@thinkingmap/client';
import type { ConclusionKind } from '@thinkingmap/db';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/commands/event-log.ts';
import { setConclusion } from '../../src/maps/conclusion-commands.ts';
import { recoverRuns } from '../../src/runs/recover-runs.ts';
import { eventually, processRootUntilReview } from '../helpers/agent-driver.ts';
import { leaveRunRunning } from '../helpers/left-running.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = await testProviders();

describe('runs left mid-step by a process that died', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The test sweeps itself: the server's own sweep (every 2.5 s) would race it for the runs it leaves behind.
    server = await startTestServer('sqlite', { app: { recoverRuns: false } });
  });
  afterAll(() => server?.close());

  /** A RUNNING run on a fresh node whose lease was last refreshed `ageMs` ago, as a dead process leaves it. */
  async function runLeftRunning(ageMs: number) {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Crash' } });
    const node = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'What was I doing?' } });
    return leaveRunRunning(server.db, { mapId: map.id, nodeId: node.id }, { updatedAt: new Date(Date.now() - ageMs) });
  }

  it('should resume a run whose lease ran out, and leave one that another process still drives', async () => {
    const abandoned = await runLeftRunning(10 * 60_000);
    const driven = await runLeftRunning(1_000);
    const resumed = await recoverRuns(server.app.engine, server.db);
    expect(resumed).toBe(1);
    const settled = await eventually(async () => {
      const run = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: abandoned.id } });
      return run.status !== 'RUNNING' ? run : null;
    }, 'the abandoned run to be driven again');
    // Driven from the start by this process: the offline model's run pauses at its first question for the person.
    expect(settled).toMatchObject({ status: 'WAITING', error: null });
    expect(await server.db.read.agentQuestion.count({ where: { runId: abandoned.id, status: 'PENDING' } })).toBe(1);
    expect((await server.db.read.agentRun.findUniqueOrThrow({ where: { id: driven.id } })).status).toBe('RUNNING');
    // A second process sweeping at the same moment finds nothing left to claim.
    expect(await recoverRuns(server.app.engine, server.db)).toBe(0);
  });
});

describe.each(providers)('a run whose process died after the person answered, on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider, { runSettings: { questionTtlMs: 60_000 }, app: { recoverRuns: false } });
  });
  afterAll(() => server?.close());

  /**
   * A root whose drafted conclusion the person accepted, as a process leaves it when it dies right after
   * committing the reply: the question ANSWERED, the run RUNNING with a stale lease, nothing driven since.
   * Checkpoints are stored only when a drive stops, so the run's checkpoint is still the one of its pause.
   */
  async function answeredThenDied() {
    const { client } = server.connect(server.alice.token);
    const { map, root, run, review } = await processRootUntilReview(client, 'Should we hire?', 'CONCLUDE');
    await server.app.engine.idle();
    const stale = new Date(Date.now() - 10 * 60_000);
    await server.db.write(async (tx) => {
      await tx.agentQuestion.update({
        where: { id: review.requestId },
        data: { status: 'ANSWERED', reply: { action: 'accept' }, answeredAt: stale },
      });
      await tx.agentRun.update({ where: { id: run.id }, data: { status: 'RUNNING', updatedAt: stale } });
    });
    // The review question's context carries the draft it asks about.
    const { draft } = review.context as { draft: { conclusion: string; kind: ConclusionKind } };
    return { client, mapId: map.id, rootId: root.id, runId: run.id, draft };
  }

  const settledRun = (runId: string) =>
    eventually(async () => {
      const found = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: runId } });
      return found.status === 'RUNNING' ? null : found;
    }, 'the recovered run to settle');

  it('should resume it with the stored reply instead of asking again', async () => {
    const { client, mapId, rootId, runId, draft } = await answeredThenDied();
    expect(await recoverRuns(server.app.engine, server.db)).toBe(1);
    expect(await settledRun(runId)).toMatchObject({ status: 'COMPLETED', error: null });
    const node = await call(client, NODE, { id: rootId });
    expect(node).toMatchObject({ status: 'COMPLETED', conclusion: draft.conclusion });
    expect(await server.db.read.agentQuestion.count({ where: { runId } })).toBe(1);
    const log = await readEvents(server.db.read, mapId, 0, 1000);
    expect(log.filter((e) => e.type === 'AgentQuestion')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'NodeConcluded')).toHaveLength(1);
  });

  it('should replay what the dead drive had already written without writing it twice', async () => {
    const { mapId, rootId, runId, draft } = await answeredThenDied();
    const { threadId } = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: runId } });
    // The dead drive had concluded the node (the step's write, with the key the graph gives it) but not settled.
    const owner = await server.db.read.user.findUniqueOrThrow({ where: { id: server.alice.id } });
    await setConclusion(
      { db: server.db, bus: server.app.bus, viewer: owner, idempotencyKey: `${threadId}:saveConclusion` },
      { nodeId: rootId, conclusion: draft.conclusion, kind: draft.kind },
    );
    expect(await recoverRuns(server.app.engine, server.db)).toBe(1);
    expect(await settledRun(runId)).toMatchObject({ status: 'COMPLETED' });
    const log = await readEvents(server.db.read, mapId, 0, 1000);
    expect(log.filter((e) => e.type === 'NodeConcluded')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'RunFinished')).toHaveLength(1);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  });
});
