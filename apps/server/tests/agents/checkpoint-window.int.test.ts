import {
  CREATE_MAP,
  CREATE_NODE,
  DELETE_MAP,
  PROCESS_NODE,
  REVIEW_DECOMPOSITION,
  START_CRITIC,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointBytesOf } from '../../src/runs/prisma-checkpoint-store.ts';
import { runPath } from '../../src/runs/run-path.ts';
import { waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const [provider] = await testProviders();
const WINDOW = 2;

describe('checkpoints of finished runs', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    const model = await startScriptedModel({
      critic_review: () => ({ summary: 'Nothing to add.', findings: [] }),
      intent_decision: () => ({ intent: 'DECOMPOSE', reason: 'broad', confidence: 0.9 }),
      strategy_decision: () => ({ strategy: 'PARALLEL', factors: [{ factor: 'f', assessment: 'a' }], reason: 'r' }),
      sub_question_proposal: () => ({
        rationale: 'split',
        subQuestions: [
          { key: 'a', question: 'Where?', goal: 'a site', dependsOn: [] },
          { key: 'b', question: 'For whom?', goal: 'customers', dependsOn: [] },
        ],
      }),
    });
    server = await startTestServer(provider!, { model: model.model, runSettings: { checkpointWindow: WINDOW } });
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server.close());

  it('should keep the last runs of a map within the window, prune older ones, and stay within the byte bound', async () => {
    const map = await call(client, CREATE_MAP, { input: { title: 'Open a bakery?' } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Open a bakery?' } });

    // A decomposition with the person's review: the largest run of a map's usual work.
    const decompose = await call(client, PROCESS_NODE, { nodeId: root.id });
    const review = await waitForQuestion(client, map.id, { kind: 'review-decomposition' });
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: review.requestId, accept: true } });
    await waitForRun(client, map.id, decompose.id, ['COMPLETED']);
    const decomposition = await checkpointBytesOf(server.db, { runIds: [decompose.id] });
    expect(decomposition.runs).toBe(1);
    // It keeps the checkpoint each of its steps started from (what its path shows and a fork starts from).
    const run = await server.db.read.agentRun.findUniqueOrThrow({ where: { id: decompose.id } });
    const path = await runPath(server.db.read, run, new Set());
    expect(path.steps.length).toBeGreaterThanOrEqual(7);
    expect(path.steps.filter((s) => s.checkpointId === null)).toEqual([]);
    const stored = await server.db.read.checkpoint.count({ where: { threadId: run.threadId } });
    console.info(
      `[checkpoints] a decomposition run of ${path.steps.length} steps keeps ${stored} checkpoints, ` +
        `${decomposition.bytes} bytes (${Math.round(decomposition.bytes / stored)} per checkpoint)`,
    );
    // The measured bound (about 22 KB: nine checkpoints of about 2.4 KB): a decomposition's stay under 32 KiB, so a
    // map's window of 20 such runs holds under 640 KiB.
    expect(decomposition.bytes).toBeLessThanOrEqual(32 * 1024);

    const runs = [decompose.id];
    for (let i = 0; i < 3; i++) {
      const critic = await call(client, START_CRITIC, { input: { mapId: map.id } });
      await waitForRun(client, map.id, critic.id, ['COMPLETED']);
      runs.push(critic.id);
      const kept = await checkpointBytesOf(server.db, { mapId: map.id });
      // Never more than the window's runs, hence never more than the window times the largest run.
      expect(kept.runs).toBe(Math.min(runs.length, WINDOW));
      expect(kept.bytes).toBeLessThanOrEqual(WINDOW * decomposition.bytes);
      console.info(`[checkpoints] the map keeps ${kept.runs} runs, ${kept.bytes} bytes`);
    }
    // The newest runs are the ones kept; the older ones were pruned.
    expect((await checkpointBytesOf(server.db, { runIds: runs.slice(-WINDOW) })).runs).toBe(WINDOW);
    expect((await checkpointBytesOf(server.db, { runIds: runs.slice(0, -WINDOW) })).bytes).toBe(0);

    // A deleted map leaves no checkpoint behind.
    const threads = await server.db.read.agentRun.findMany({ where: { mapId: map.id }, select: { threadId: true } });
    await call(client, DELETE_MAP, { id: map.id });
    const left = await server.db.read.checkpoint.count({ where: { threadId: { in: threads.map((t) => t.threadId) } } });
    expect(left).toBe(0);
  });
});
