import type { Database, User } from '@thinkingmap/db';
import { testProviders, useTestDatabase } from '@thinkingmap/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../events/event-bus.ts';
import { createMap } from '../maps/map-commands.ts';
import { MapTokenLedgers } from './map-token-ledger.ts';

const providers = await testProviders();

describe.each(providers)("a map's token ledger on %s", (provider) => {
  const database = useTestDatabase(provider);
  let db: Database;
  let owner: User;
  beforeAll(async () => {
    db = database.db;
    owner = await db.write((tx) => tx.user.create({ data: { name: 'Owner' } }));
  });

  /** A map with `budget` and a RUNNING run on it. */
  async function runOnMap(budget: number) {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const map = await createMap({ db, bus, viewer: owner }, { title: 'Budgeted' });
    await bus.close();
    await db.write((tx) => tx.map.update({ where: { id: map.id }, data: { tokenBudget: budget } }));
    const run = await db.write((tx) =>
      tx.agentRun.create({ data: { mapId: map.id, agent: 'divergent', threadId: crypto.randomUUID() } }),
    );
    return { id: run.id, mapId: map.id };
  }

  it("should meter a run's parallel calls (a divergent level's tasks) without deadlocking, every token counted once", async () => {
    const run = await runOnMap(10_000_000);
    const ledger = new MapTokenLedgers(db).forRun(run, 'en');
    const task = async () => {
      for (let call = 0; call < 15; call++) {
        const reservation = await ledger.reserve(100);
        await reservation.settle({ promptTokens: 100, completionTokens: 20 });
      }
    };
    await Promise.all(Array.from({ length: 8 }, task));

    const [map, row] = await Promise.all([
      db.read.map.findUniqueOrThrow({ where: { id: run.mapId } }),
      db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } }),
    ]);
    expect(map.tokensUsed).toBe(8 * 15 * 120);
    expect(row).toMatchObject({ promptTokens: 8 * 15 * 100, completionTokens: 8 * 15 * 20, tokensReserved: 0 });
  });

  it("should admit a run's parallel calls, from two instances, only while the budget covers what they may spend", async () => {
    // Each call may spend its prompt (100) and an answer of up to 200: the budget holds three at once.
    const run = await runOnMap(1_000);
    const rules = { maxAnswerTokens: 200, minAnswerTokens: 64 };
    const instances = [0, 1].map(() => new MapTokenLedgers(db, { rules, waitMs: 0 }).forRun(run, 'en'));
    const attempts = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => instances[i % 2]!.reserve(100)));
    const granted = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(granted.map((r) => r.maxTokens)).toEqual([200, 200, 200]);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(String(refused[0])).toMatch(/0 of 1,000 tokens spent, 900 more held by model calls in progress/);
    const held = async () => (await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).tokensReserved;
    expect(await held()).toBe(900);

    // Each settles what it really spent and gives back what it held; a call made now sees what is left.
    for (const reservation of granted) await reservation.settle({ promptTokens: 100, completionTokens: 150 });
    expect(await held()).toBe(0);
    const map = await db.read.map.findUniqueOrThrow({ where: { id: run.mapId } });
    expect(map.tokensUsed).toBe(750);
    await expect(instances[0]!.reserve(100)).resolves.toMatchObject({ maxTokens: 150 });
  });

  it('should mark the run estimated once a settled call was counted locally, and keep it so', async () => {
    const run = await runOnMap(10_000);
    const ledger = new MapTokenLedgers(db).forRun(run, 'en');
    const estimated = async () => (await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).tokensEstimated;
    await (await ledger.reserve(10)).settle({ promptTokens: 10, completionTokens: 5 });
    expect(await estimated()).toBe(false);
    await (await ledger.reserve(10)).settle({ promptTokens: 12, completionTokens: 7, estimated: true });
    await (await ledger.reserve(10)).settle({ promptTokens: 10, completionTokens: 5 });
    expect(await estimated()).toBe(true);
  });
});
