import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { type Tx, withRelaxedWrites } from './database.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';
import { createWriteQueue } from './write-queue.ts';

const providers = await testProviders();

/** A promise and the function that resolves it. */
function signal() {
  let fire = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}

describe.skipIf(!providers.includes('postgresql'))('write path on PostgreSQL', () => {
  const database = useTestDatabase('postgresql');

  it('should retry a transaction the server aborted as a deadlock, so both writers succeed', async () => {
    const { db } = database;
    const [a, b] = await db.write(async (tx) => {
      const owner = await tx.user.create({ data: { name: 'deadlock' } });
      const create = (title: string) => tx.map.create({ data: { ownerId: owner.id, title, constraints: [] } });
      return [await create('a'), await create('b')];
    });
    const firstLocked = [signal(), signal()] as const;
    const attempts = [0, 0];
    // Each writer locks one row, waits until the other holds its row, then asks for the other's: a deadlock.
    const writer = (index: 0 | 1, mine: string, theirs: string) =>
      db.write(async (tx) => {
        attempts[index]! += 1;
        await tx.map.update({ where: { id: mine }, data: { version: { increment: 1 } } });
        firstLocked[index].fire();
        await firstLocked[1 - index]!.fired;
        await tx.map.update({ where: { id: theirs }, data: { version: { increment: 1 } } });
      });
    await Promise.all([writer(0, a.id, b.id), writer(1, b.id, a.id)]);
    expect(attempts.toSorted()).toEqual([1, 2]);
    const versions = await db.read.map.findMany({ where: { id: { in: [a.id, b.id] } }, select: { version: true } });
    expect(versions.map((m) => m.version)).toEqual([a.version + 2, b.version + 2]);
  });
});

describe.each(providers)('write durability on %s', (provider) => {
  const database = useTestDatabase(provider);
  /** The flush mode the write's own transaction runs under, as the database reports it. */
  const flushMode = (options?: { durability: 'full' | 'relaxed' }, db = database.db) =>
    db.write(async (tx) => {
      const rows =
        provider === 'sqlite'
          ? await tx.$queryRawUnsafe<{ synchronous: bigint | number }[]>('PRAGMA synchronous')
          : await tx.$queryRawUnsafe<{ synchronous_commit: string }[]>('SHOW synchronous_commit');
      const row = rows[0]!;
      return 'synchronous' in row ? ['off', 'normal', 'full'][Number(row.synchronous)] : row.synchronous_commit;
    }, options);

  // Each database's own flush settings: registered only for it (not skipped for the other).
  if (provider === 'postgresql')
    it('should flush a write by default and commit a relaxed one without waiting for the disk', async () => {
      expect(await flushMode()).toBe('on');
      expect(await flushMode({ durability: 'relaxed' })).toBe('off');
      expect(await flushMode({ durability: 'full' })).toBe('on');
      // A run's view of the database writes relaxed unless a write asks for more.
      const runDb = withRelaxedWrites(database.db);
      expect(await flushMode(undefined, runDb)).toBe('off');
      expect(await flushMode({ durability: 'full' }, runDb)).toBe('on');
      expect(await flushMode()).toBe('on');
    });

  if (provider === 'sqlite')
    it('should never flush inside a COMMIT, whatever the durability asked', async () => {
      expect(await flushMode()).toBe('normal');
      expect(await flushMode({ durability: 'relaxed' })).toBe('normal');
      expect(await flushMode({ durability: 'full' })).toBe('normal');
    });

  if (provider === 'sqlite')
    it('should resolve a full write only after a flush started after its commit, and a relaxed one without one', async () => {
      const flushes: { committedUsers: number; done: () => void }[] = [];
      const flush = async () => {
        const committedUsers = await database.db.read.user.count({ where: { name: 'flushed' } });
        await new Promise<void>((done) => flushes.push({ committedUsers, done }));
      };
      // A client of its own on the test database: its writes go through this queue only.
      const client = new SqliteClient({
        adapter: new PrismaBetterSqlite3({ url: database.testDb.url.replace(/^file:/, '') }),
      });
      const queue = createWriteQueue(client, 'sqlite', { flush });
      const create = () => (tx: Tx) => tx.user.create({ data: { name: 'flushed' } });
      let resolved = false;
      const full = queue.write(create()).then(() => {
        resolved = true;
      });
      await vi.waitFor(() => expect(flushes).toHaveLength(1));
      // The flush began once the write had committed, and the write waits for it.
      expect(flushes[0]!.committedUsers).toBe(1);
      await queue.write(create(), { durability: 'relaxed' });
      expect(resolved).toBe(false);
      expect(flushes).toHaveLength(1);
      flushes[0]!.done();
      await full;
      expect(resolved).toBe(true);
      await client.$disconnect();
    });

  it('should commit relaxed and full writes alike', async () => {
    const { db } = database;
    const owner = await db.write((tx) => tx.user.create({ data: { name: 'durability' } }), { durability: 'relaxed' });
    const titles = ['relaxed 1', 'full', 'relaxed 2'];
    await Promise.all(
      titles.map((title) =>
        db.write((tx) => tx.map.create({ data: { ownerId: owner.id, title, constraints: [] } }), {
          durability: title === 'full' ? 'full' : 'relaxed',
        }),
      ),
    );
    const maps = await db.read.map.findMany({ where: { ownerId: owner.id }, orderBy: { createdAt: 'asc' } });
    expect(maps.map((m) => m.title).toSorted()).toEqual(titles.toSorted());
  });
});
