import { describe, expect, it } from 'vitest';
import { withRelaxedWrites } from './database.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

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

  it('should flush a write by default and commit a relaxed one without waiting for the disk', async () => {
    const full = provider === 'sqlite' ? 'full' : 'on';
    const relaxed = provider === 'sqlite' ? 'normal' : 'off';
    expect(await flushMode()).toBe(full);
    expect(await flushMode({ durability: 'relaxed' })).toBe(relaxed);
    expect(await flushMode({ durability: 'relaxed' })).toBe(relaxed);
    expect(await flushMode({ durability: 'full' })).toBe(full);
    expect(await flushMode()).toBe(full);
    // A run's view of the database writes relaxed unless a write asks for more.
    const runDb = withRelaxedWrites(database.db);
    expect(await flushMode(undefined, runDb)).toBe(relaxed);
    expect(await flushMode({ durability: 'full' }, runDb)).toBe(full);
    expect(await flushMode()).toBe(full);
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
