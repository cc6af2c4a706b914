import { describe, expect, it } from 'vitest';
import { listMigrations } from './migrate.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

describe.each(providers)('database on %s', (provider) => {
  const database = useTestDatabase(provider, { empty: true });

  it('should apply every shipped migration once and record it as prisma migrate deploy does', async () => {
    const { db, testDb } = database;
    const rows = await db.write((tx) =>
      tx.$queryRawUnsafe<{ migration_name: string; checksum: string }[]>(
        'SELECT migration_name, checksum FROM _prisma_migrations ORDER BY migration_name',
      ),
    );
    expect(rows.map((row) => row.migration_name)).toEqual(listMigrations(provider).map((m) => m.name));
    const again = await testDb.open();
    const after = await again.write((tx) => tx.$queryRawUnsafe<unknown[]>('SELECT id FROM _prisma_migrations'));
    expect(after).toHaveLength(rows.length);
    await again.close();
  });

  it('should keep every acknowledged write when 8 writers change one map at once', async () => {
    const { db } = database;
    const map = await db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'writer' } });
      return tx.map.create({ data: { ownerId: user.id, title: 'concurrency', constraints: [] } });
    });
    const writers = Array.from({ length: 8 }, (_, writer) =>
      Array.from({ length: 25 }, (_, i) =>
        db.write(async (tx) => {
          const bumped = await tx.map.update({ where: { id: map.id }, data: { lastSeq: { increment: 1 } } });
          await tx.node.create({
            data: { mapId: map.id, question: `w${writer}-${i}`, constraints: [], position: bumped.lastSeq },
          });
          return bumped.lastSeq;
        }),
      ),
    ).flat();
    const seqs = await Promise.all(writers);
    expect(new Set(seqs).size).toBe(200);
    expect(await db.read.node.count({ where: { mapId: map.id } })).toBe(200);
    expect((await db.read.map.findUniqueOrThrow({ where: { id: map.id } })).lastSeq).toBe(200);
  });

  it('should let a read beside an open write see only what was committed, and nothing of a write rolled back', async () => {
    const { db } = database;
    const map = await db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'reader' } });
      return tx.map.create({ data: { ownerId: user.id, title: 'committed', constraints: [] } });
    });
    const seen: (string | undefined)[] = [];
    const readTitle = async () => (await db.read.map.findUnique({ where: { id: map.id } }))?.title;
    await expect(
      db.write(async (tx) => {
        await tx.map.update({ where: { id: map.id }, data: { title: 'never committed' } });
        // A read of someone else (a GraphQL query, the read cache filling) while this write is open.
        seen.push(await readTitle());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    seen.push(await readTitle());
    await db.write((tx) => tx.map.update({ where: { id: map.id }, data: { title: 'changed' } }));
    // A committed write is seen by the next read at once.
    seen.push(await readTitle());
    expect(seen).toEqual(['committed', 'committed', 'changed']);
  });
});
