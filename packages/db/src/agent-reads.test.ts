import { describe, expect, it } from 'vitest';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

describe.each(providers)('agent reads on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('should read nodes, neighbourhoods, dependencies, questions and waiting runs as committed', async () => {
    const { db } = database;
    const seeded = await db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'reads' } });
      const map = await tx.map.create({
        data: { ownerId: user.id, title: '读 reads', constraints: ['under 5 €', '两周内'], autoRun: false },
      });
      const node = (question: string, parentId: string | null, position: number, extra: object = {}) =>
        tx.node.create({ data: { mapId: map.id, parentId, question, constraints: [], position, ...extra } });
      const root = await node('How do we grow?', null, 0, { goal: 'a plan', divergentLevel: 2, completionScore: 0.75 });
      // Created out of their order among siblings, one concluded with a stale mark.
      const second = await node('Which channel?', root.id, 1, {
        status: 'COMPLETED',
        conclusion: 'Search',
        conclusionKind: 'DECISION',
        concludedAt: new Date(5_000),
        staleReason: 'CHILD_CHANGED',
        staleSince: new Date(6_000),
      });
      const first = await node('Who buys?', root.id, 0, { constraints: ['B2B'] });
      await tx.dependency.create({ data: { mapId: map.id, nodeId: second.id, dependsOnId: first.id } });
      await tx.contextItem.create({ data: { mapId: map.id, nodeId: root.id, title: '来源', content: 'notes' } });
      await tx.contextItem.create({
        data: { mapId: map.id, nodeId: root.id, content: 'later', createdAt: new Date() },
      });
      const run = await tx.agentRun.create({
        data: {
          mapId: map.id,
          nodeId: second.id,
          agent: 'process-node',
          status: 'WAITING_FOR_DEPENDENCIES',
          threadId: `thread-${second.id}`,
          input: { nodeId: second.id, intentOverride: null },
        },
      });
      await tx.agentRun.create({
        data: { mapId: map.id, nodeId: first.id, agent: 'process-node', threadId: `thread-${first.id}` },
      });
      const question = await tx.agentQuestion.create({
        data: {
          runId: run.id,
          mapId: map.id,
          nodeId: second.id,
          interruptId: 'i1',
          kind: 'REVIEW_CONCLUSION',
          question: 'OK?',
          context: { draft: { conclusion: '是' }, n: 2 },
          expiresAt: new Date(60_000),
        },
      });
      return { map, root, first, second, run, question };
    });
    const reads = db.agentReads;
    for (const node of [seeded.root, seeded.first, seeded.second]) {
      expect(await reads.nodeMapId(node.id)).toBe(seeded.map.id);
      expect(await reads.nodeLink(node.id)).toEqual({ parentId: node.parentId, version: node.version });
      expect((await reads.neighbourhood(node.id))?.node).toMatchObject({ ...node, map: seeded.map });
    }
    expect(await reads.nodeMapId('no-such-node')).toBeNull();
    expect(await reads.nodeLink('no-such-node')).toBeNull();
    expect(await reads.neighbourhood('no-such-node')).toBeNull();
    expect(await reads.map(seeded.map.id)).toEqual(seeded.map);
    expect(await reads.map('no-such-map')).toBeNull();
    expect((await reads.nodesOf(seeded.map.id)).map((n) => n.id).sort()).toEqual(
      [seeded.root.id, seeded.first.id, seeded.second.id].sort(),
    );
    expect(await reads.nodesOf('no-such-map')).toEqual([]);
    expect(await reads.dependencyEdgesOf(seeded.map.id)).toEqual([
      { nodeId: seeded.second.id, dependsOnId: seeded.first.id },
    ]);
    expect((await reads.mapVersion(seeded.map.id))?.lastSeq).toBe(seeded.map.lastSeq);
    expect((await reads.dependenciesOf(seeded.second.id)).map((n) => n.id)).toEqual([seeded.first.id]);
    expect(await reads.dependenciesOf(seeded.first.id)).toEqual([]);
    const root = (await reads.neighbourhood(seeded.root.id))!;
    expect(root.node.children.map((c) => c.question)).toEqual(['Who buys?', 'Which channel?']);
    expect(root.childDependencies).toEqual([{ nodeId: seeded.second.id, dependsOnId: seeded.first.id }]);
    expect(root.node.map.constraints).toEqual(['under 5 €', '两周内']);
    expect(root.node.map.autoRun).toBe(false);
    const second = (await reads.neighbourhood(seeded.second.id))!.node;
    expect(second.staleSince).toEqual(new Date(6_000));
    expect(second.dependencies.map((d) => d.dependsOn.question)).toEqual(['Who buys?']);
    expect(second.parent?.id).toBe(seeded.root.id);
    expect(await reads.question(seeded.question.id)).toEqual(seeded.question);
    expect((await reads.question(seeded.question.id))?.context).toEqual({ draft: { conclusion: '是' }, n: 2 });
    expect(await reads.question('no-such-question')).toBeNull();
    expect(await reads.waitingRuns(seeded.map.id)).toEqual([seeded.run]);
    expect((await reads.waitingRuns()).map((r) => r.id)).toContain(seeded.run.id);
    expect(await reads.waitingRuns('no-such-map')).toEqual([]);
  });

  it('should read a node’s latest messages not deleted, latest first, and count its conversation', async () => {
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
    const reads = db.agentReads;
    const latest = await reads.latestMessages(node.id, 'CONCLUDE', 10);
    expect(latest.map((m) => m.content)).toEqual(['third', 'second', 'first']);
    expect(latest[1]!.metadata).toEqual({ draft: { conclusion: 'x' } });
    expect(latest[0]!.createdAt).toEqual(new Date(4_000));
    expect((await reads.latestMessages(node.id, 'CONCLUDE', 2)).map((m) => m.content)).toEqual(['third', 'second']);
    expect(await reads.latestMessages('no-such-node', 'CONCLUDE', 10)).toEqual([]);
    expect(new Map(await reads.messageCounts(node.id, 'CONCLUDE'))).toEqual(
      new Map([
        ['USER', 2],
        ['ASSISTANT', 1],
      ]),
    );
    expect(await reads.firstMessageAt(node.id, 'CONCLUDE')).toEqual(new Date(1_000));
    expect(await reads.firstMessageAt(node.id, 'DECOMPOSE')).toEqual(new Date(5_000));
    expect(await reads.firstMessageAt('no-such-node', 'CONCLUDE')).toBeNull();
  });

  it('should read a map’s version in one query as soon as a write commits it', async () => {
    const { db } = database;
    const map = await db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'probe' } });
      return tx.map.create({ data: { ownerId: user.id, title: 'probe', constraints: [] } });
    });
    expect(await db.mapVersion(map.id)).toEqual({
      ownerId: map.ownerId,
      autoRun: map.autoRun,
      lastSeq: 0,
      tokensUsed: 0,
      updatedAt: map.updatedAt.toISOString(),
    });
    await db.write((tx) => tx.map.update({ where: { id: map.id }, data: { lastSeq: { increment: 1 } } }));
    expect((await db.mapVersion(map.id))?.lastSeq).toBe(1);
    expect(await db.mapVersion('no-such-map')).toBeNull();
  });
});
