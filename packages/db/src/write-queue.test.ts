import { describe, expect, it } from 'vitest';
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
