import { describe, expect, it } from 'vitest';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

describe.each(providers)('map log on %s', (provider) => {
  const database = useTestDatabase(provider);

  async function newMap() {
    const { db } = database;
    return db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'log' } });
      return tx.map.create({
        data: { ownerId: user.id, title: 'log', constraints: ['a', 'b'], tokenBudget: 500, autoRun: false },
      });
    });
  }

  it("should append events that Prisma reads back, moving the map and its owner's feed on", async () => {
    const { db } = database;
    const map = await newMap();
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    await db.write((tx) =>
      db.mapLog.append(tx, map, 2, [
        { seq: 1, type: 'NodeCreated', version: 2, payload: { node: { id: 'n', text: '中文' } }, createdAt },
        {
          seq: 2,
          type: 'NodeUpdated',
          version: 1,
          payload: { list: [1, null] },
          createdAt,
          actorId: map.ownerId,
          runId: 'r',
          step: 'draft',
          changeSeq: 1,
          revertsSeq: null,
          changeKind: 'EDIT',
        },
      ]),
    );
    const events = await db.read.event.findMany({ where: { mapId: map.id }, orderBy: { seq: 'asc' } });
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      {
        mapId: map.id,
        seq: 1,
        type: 'NodeCreated',
        version: 2,
        payload: { node: { id: 'n', text: '中文' } },
        createdAt,
        actorId: null,
        runId: null,
        step: null,
        changeSeq: null,
        revertsSeq: null,
        changeKind: null,
        ownerId: map.ownerId,
        feedSeq: 1,
      },
      {
        mapId: map.id,
        seq: 2,
        type: 'NodeUpdated',
        version: 1,
        payload: { list: [1, null] },
        createdAt,
        actorId: map.ownerId,
        runId: 'r',
        step: 'draft',
        changeSeq: 1,
        revertsSeq: null,
        changeKind: 'EDIT',
        ownerId: map.ownerId,
        feedSeq: 2,
      },
    ]);
    const after = await db.read.map.findUniqueOrThrow({ where: { id: map.id } });
    expect(after.lastSeq).toBe(2);
    // The map's updatedAt is its last event's time: who knows the event knows the row's version.
    expect(after.updatedAt.toISOString()).toBe(createdAt.toISOString());
    expect((await db.mapVersion(map.id))?.lastSeq).toBe(2);
    // A sequence number is never reused: the log refuses a second event with it, and the write rolls back.
    await expect(
      db.write((tx) => db.mapLog.append(tx, map, 3, [{ seq: 2, type: 'X', version: 1, payload: {}, createdAt }])),
    ).rejects.toThrow();
    expect((await db.read.map.findUniqueOrThrow({ where: { id: map.id } })).lastSeq).toBe(2);
    expect((await db.read.user.findUniqueOrThrow({ where: { id: map.ownerId } })).lastFeedSeq).toBe(2);
  });

  it("should number the events of all an owner's maps in one feed, consecutive across maps and never reused", async () => {
    const { db } = database;
    const first = await newMap();
    const second = await db.write((tx) =>
      tx.map.create({ data: { ownerId: first.ownerId, title: 'second', constraints: [] } }),
    );
    const createdAt = new Date();
    const event = (seq: number) => ({ seq, type: 'NodeCreated', version: 1, payload: {}, createdAt });
    expect(await db.write((tx) => db.mapLog.append(tx, first, 1, [event(1)]))).toBe(1);
    expect(await db.write((tx) => db.mapLog.append(tx, second, 2, [event(1), event(2)]))).toBe(2);
    // A write that rolls back leaves no position taken: the next one continues where the committed ones ended.
    await expect(
      db.write(async (tx) => {
        await db.mapLog.append(tx, first, 2, [event(2)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db.write((tx) => db.mapLog.append(tx, first, 2, [event(2)]))).toBe(4);
    const feed = await db.read.event.findMany({
      where: { ownerId: first.ownerId },
      orderBy: { feedSeq: 'asc' },
      select: { mapId: true, seq: true, feedSeq: true },
    });
    expect(feed).toEqual([
      { mapId: first.id, seq: 1, feedSeq: 1 },
      { mapId: second.id, seq: 1, feedSeq: 2 },
      { mapId: second.id, seq: 2, feedSeq: 3 },
      { mapId: first.id, seq: 2, feedSeq: 4 },
    ]);
  });

  it('should append a command of more events than one statement holds, numbered on without a gap', async () => {
    const { db } = database;
    const map = await newMap();
    const createdAt = new Date();
    const rows = Array.from({ length: 1_201 }, (_, i) => ({
      seq: i + 1,
      type: 'NodeCreated',
      version: 1,
      payload: { i },
      createdAt,
    }));
    expect(await db.write((tx) => db.mapLog.append(tx, map, rows.length, rows))).toBe(1);
    const events = await db.read.event.findMany({
      where: { mapId: map.id },
      orderBy: { seq: 'asc' },
      select: { seq: true, feedSeq: true, payload: true },
    });
    expect(events).toEqual(rows.map((row) => ({ seq: row.seq, feedSeq: row.seq, payload: row.payload })));
    expect((await db.read.user.findUniqueOrThrow({ where: { id: map.ownerId } })).lastFeedSeq).toBe(1_201);
  });

  it('should store a receipt once and read its result back', async () => {
    const { db } = database;
    expect(await db.write((tx) => db.mapLog.receipt(tx, 'k1'))).toBeNull();
    expect(await db.write((tx) => db.mapLog.storeReceipt(tx, 'k1', { id: 'x', n: 2, nested: [true] }))).toBe(true);
    expect(await db.write((tx) => db.mapLog.receipt(tx, 'k1'))).toEqual({ result: { id: 'x', n: 2, nested: [true] } });
    expect((await db.read.commandReceipt.findUniqueOrThrow({ where: { key: 'k1' } })).result).toEqual({
      id: 'x',
      n: 2,
      nested: [true],
    });
    // A second receipt under the key is not stored: the first one stays.
    expect(await db.write((tx) => db.mapLog.storeReceipt(tx, 'k1', null))).toBe(false);
    expect(await db.write((tx) => db.mapLog.receipt(tx, 'k1'))).toEqual({ result: { id: 'x', n: 2, nested: [true] } });
  });
});
