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
