import { describe, expect, it } from 'vitest';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

describe.each(providers)('conversation log on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('should read a node’s latest messages not deleted, latest first, exactly as Prisma reads them', async () => {
    const { db } = database;
    const { node } = await db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'talk' } });
      const map = await tx.map.create({ data: { ownerId: user.id, title: 'talk', constraints: [] } });
      const node = await tx.node.create({ data: { mapId: map.id, question: 'Why?', constraints: [] } });
      const conclude = await tx.conversation.create({ data: { nodeId: node.id, mapId: map.id, kind: 'CONCLUDE' } });
      const decompose = await tx.conversation.create({ data: { nodeId: node.id, mapId: map.id, kind: 'DECOMPOSE' } });
      const message = (conversationId: string, content: string, at: number, extra: object = {}) =>
        tx.message.create({
          data: { conversationId, mapId: map.id, role: 'USER', content, createdAt: new Date(at), ...extra },
        });
      await message(conclude.id, 'first', 1_000);
      await message(conclude.id, 'second', 2_000, { metadata: { draft: { conclusion: 'x' } }, kind: 'TEXT' });
      await message(conclude.id, 'deleted', 3_000, { deletedAt: new Date(3_500) });
      await message(conclude.id, 'third', 4_000, { role: 'ASSISTANT' });
      await message(decompose.id, 'elsewhere', 5_000);
      return { node };
    });
    const prisma = (take: number) =>
      db.read.message.findMany({
        where: { conversation: { nodeId: node.id, kind: 'CONCLUDE' }, deletedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
      });
    const latest = await db.conversationLog.latestMessages(node.id, 'CONCLUDE', 10);
    expect(latest).toEqual(await prisma(10));
    expect(latest.map((m) => m.content)).toEqual(['third', 'second', 'first']);
    expect(latest[1]!.metadata).toEqual({ draft: { conclusion: 'x' } });
    expect(await db.conversationLog.latestMessages(node.id, 'CONCLUDE', 2)).toEqual(await prisma(2));
    expect(await db.conversationLog.latestMessages('no-such-node', 'CONCLUDE', 10)).toEqual([]);
  });
});
