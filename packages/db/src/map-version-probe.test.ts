import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { sqliteProbe } from './map-version-probe.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

/** A new map (and its owner) written through Prisma. */
function newMap(db: Database) {
  return db.write(async (tx) => {
    const user = await tx.user.create({ data: { name: 'probe' } });
    return tx.map.create({ data: { ownerId: user.id, title: 'probe', constraints: [] } });
  });
}

/** One change of the map as a command makes it: `lastSeq` bumped in a transaction. */
function bump(db: Database, mapId: string) {
  return db.write((tx) => tx.map.update({ where: { id: mapId }, data: { lastSeq: { increment: 1 } } }));
}

describe.each(providers)('map-version probe on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('should read the row a write through Prisma has just committed', async () => {
    const { db } = database;
    const map = await newMap(db);
    expect(await db.mapVersion(map.id)).toEqual({
      ownerId: map.ownerId,
      autoRun: map.autoRun,
      lastSeq: 0,
      tokensUsed: 0,
      updatedAt: expect.any(String),
    });
    await bump(db, map.id);
    expect((await db.mapVersion(map.id))?.lastSeq).toBe(1);
    expect(await db.mapVersion('no-such-map')).toBeNull();
  });
});

describe('map-version probe on sqlite, read without waiting', () => {
  const database = useTestDatabase('sqlite');

  it('should offer the synchronous read on a SQLite file', () => {
    expect(database.db.mapVersionNow).toBeTypeOf('function');
  });

  it('should see a commit through Prisma at the very next read', async () => {
    const { db } = database;
    const map = await newMap(db);
    const readNow = db.mapVersionNow!;
    expect(readNow(map.id)?.lastSeq).toBe(0);
    for (let seq = 1; seq <= 3; seq++) {
      await bump(db, map.id);
      expect(readNow(map.id)?.lastSeq).toBe(seq);
    }
  });

  it('should see a commit made on another connection (another process) at the very next read', async () => {
    const { db, testDb } = database;
    const map = await newMap(db);
    const other = await testDb.open();
    try {
      expect(db.mapVersionNow!(map.id)?.lastSeq).toBe(0);
      await bump(other, map.id);
      expect(db.mapVersionNow!(map.id)?.lastSeq).toBe(1);
      await other.write((tx) => tx.map.update({ where: { id: map.id }, data: { tokensUsed: 42 } }));
      expect(db.mapVersionNow!(map.id)?.tokensUsed).toBe(42);
    } finally {
      await other.close();
    }
  });

  it('should see a map created after it was read as unknown', async () => {
    const { db } = database;
    const map = await newMap(db);
    expect(db.mapVersionNow!('later')).toBeNull();
    await db.write((tx) =>
      tx.map.create({ data: { id: 'later', ownerId: map.ownerId, title: 'later', constraints: [] } }),
    );
    expect(db.mapVersionNow!('later')?.ownerId).toBe(map.ownerId);
  });

  it('should see a change to any map drop what it kept of every map', async () => {
    const { db } = database;
    const [first, second] = [await newMap(db), await newMap(db)];
    const kept = db.mapVersionNow!(first.id);
    expect(db.mapVersionNow!(first.id)).toBe(kept);
    await bump(db, second.id);
    const again = db.mapVersionNow!(first.id);
    expect(again).not.toBe(kept);
    expect(again).toEqual(kept);
    expect(Object.isFrozen(again)).toBe(true);
  });
});

describe('map-version probe on a SQLite file outside WAL mode', () => {
  it('should see every commit of another connection through data_version', async () => {
    const file = join(tmpdir(), `tm-probe-${process.pid}-${Date.now()}.db`);
    const writer = new Sqlite(file);
    writer.pragma('journal_mode = DELETE');
    writer.exec(
      'CREATE TABLE "Map" ("id" TEXT PRIMARY KEY, "ownerId" TEXT, "lastSeq" INTEGER, "tokensUsed" INTEGER, "updatedAt" TEXT, "autoRun" INTEGER)',
    );
    writer.prepare(`INSERT INTO "Map" VALUES ('m', 'u', 0, 0, 't', 1)`).run();
    const reader = new Sqlite(file);
    reader.pragma('query_only = ON');
    const probe = sqliteProbe(reader, file);
    try {
      expect(existsSync(`${file}-shm`)).toBe(false);
      expect(probe.readNow!('m')).toEqual({ ownerId: 'u', lastSeq: 0, tokensUsed: 0, updatedAt: 't', autoRun: true });
      for (let seq = 1; seq <= 3; seq++) {
        writer.prepare(`UPDATE "Map" SET "lastSeq" = ?`).run(seq);
        expect(probe.readNow!('m')?.lastSeq).toBe(seq);
      }
    } finally {
      await probe.close();
      writer.close();
      rmSync(file, { force: true });
    }
  });
});
