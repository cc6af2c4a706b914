import {
  CREATE_MAP,
  CREATE_NODE,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  RUNS,
  START_DIVERGENT,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders, testProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divergentModel, readSession, rootOf, task, waitForSessionStatus } from '../divergent/divergent-helpers.ts';
import { eventually, waitForQuestion } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

/** Each answer takes a while, so the runs' calls are in flight at the same time. */
const slow = (answer: object) => ({ content: JSON.stringify(answer), delayMs: 150, chunkSize: 16 });

describe.each(providers)("a map's token budget shared by runs at once on %s", (provider) => {
  let server: TestServer;
  let client: Client;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    model = await startScriptedModel({
      intent_decision: () => slow({ intent: 'CONCLUDE', reason: 'specific enough to conclude', confidence: 0.8 }),
      conclusion_draft: () =>
        slow({ kind: 'ANALYTICAL', conclusion: 'A short conclusion.', keyPoints: ['short'], confidence: 0.6 }),
    });
    server = await startTestServer(provider, { model: model.model, runSettings: { budgetWaitMs: 10_000 } });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should keep the total of parallel runs within the budget, refusing the calls it cannot hold', async () => {
    const map = await call(client, CREATE_MAP, { input: { title: 'Where to open the second café' } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Where to open it?' } });
    const leaves = [];
    for (const question of ['Rent near campus?', 'Footfall at the station?', 'Parking downtown?', 'Noise rules?'])
      leaves.push(await call(client, CREATE_NODE, { input: { mapId: map.id, parentId: root.id, question } }));
    // About three calls' worth: one run alone would fit (two calls); four at once cannot.
    const budget = 2_600;
    await call(client, UPDATE_MAP, { input: { id: map.id, tokenBudget: budget } });

    const started = await Promise.all(leaves.map((leaf) => call(client, PROCESS_NODE, { nodeId: leaf.id })));
    const runs = await eventually(async () => {
      const all = (await call(client, RUNS, { mapId: map.id })).data;
      const ours = all.filter((r) => started.some((s) => s.id === r.id));
      return ours.every((r) => r.status !== 'RUNNING') ? ours : null;
    }, 'every run to stop or wait for the person');

    const spent = (await call(client, UPDATE_MAP, { input: { id: map.id } })).tokensUsed;
    const billed = model.server.requests.length;
    // Within the budget: every call's prompt was estimated with a real tokenizer before it was made (the
    // endpoint here bills the same count, so the estimate's error is at most the schema sent beside it).
    expect(spent).toBeLessThanOrEqual(budget);
    expect(spent).toBeGreaterThan(budget / 2);
    // What was spent is what the runs record, and nothing stays reserved.
    expect(runs.reduce((sum, r) => sum + r.promptTokens + r.completionTokens, 0)).toBe(spent);
    const held = await server.db.read.agentRun.aggregate({ where: { mapId: map.id }, _sum: { tokensReserved: true } });
    expect(held._sum.tokensReserved).toBe(0);

    // The calls ran at once and each answer was capped to what the budget left.
    const caps = model.server.requests.slice(-billed).map((r) => r.body.max_tokens as number);
    expect(caps.every((cap) => typeof cap === 'number' && cap > 0 && cap < budget)).toBe(true);
    expect(new Set(caps).size).toBeGreaterThan(1);

    // Some run was refused, saying what was spent, the budget and that its call was not made.
    const refused = runs.filter((r) => r.errorCode === 'BUDGET_EXHAUSTED');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.error).toMatch(/of 2,600 tokens spent.*so it was not made/);
    expect(runs.some((r) => r.status === 'WAITING')).toBe(true);
  });
});

/** A task whose prompt takes about a thousand tokens: the room left below holds one such call, not two. */
const bulky = (name: string) => ({
  ...task(name),
  query: Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 37) % 20_000))).join(''),
});

describe.each(await testProviders())("a divergent level's parallel tasks on a tight budget, on %s", (provider) => {
  it('should admit only the task calls the budget covers, fail the others with its reason and never overspend', async () => {
    const model = await divergentModel({ plans: [[bulky('market'), bulky('rent')]], scores: [] });
    const server = await startTestServer(provider, { model: model.model, runSettings: { budgetWaitMs: 10_000 } });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: 10_000_000 } });
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
      const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
      // Room for one task's prompt and answer, not for two.
      const { tokensUsed } = await call(client, UPDATE_MAP, { input: { id: mapId } });
      const budget = tokensUsed + 3_000;
      await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: budget } });
      await call(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, accept: true } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');

      const session = await readSession(client, run.id);
      const tasks = session.levels[0]!.tasks;
      expect(tasks.map((t) => t.status).sort()).toEqual(['DONE', 'FAILED']);
      expect(tasks.find((t) => t.status === 'FAILED')!.reason).toMatch(
        /^The map's token budget is used up: [\d,]+ of [\d,]+ tokens spent\. .*so it was not made/,
      );
      // One task's call was made; the other was never sent to the endpoint.
      expect([...model.taskCalls.values()]).toEqual([1]);
      const spent = (await call(client, UPDATE_MAP, { input: { id: mapId } })).tokensUsed;
      expect(spent).toBeLessThanOrEqual(budget);
      const runs = await server.db.read.agentRun.findMany({ where: { mapId } });
      expect(runs.reduce((sum, r) => sum + r.promptTokens + r.completionTokens, 0)).toBe(spent);
      expect(runs.map((r) => r.tokensReserved)).toEqual(runs.map(() => 0));
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
