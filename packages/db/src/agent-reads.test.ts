import { describe, expect, it } from 'vitest';
import { prismaAgentReads } from './agent-reads.ts';
import type { Db } from './database.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

describe.each(providers)('agent reads on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('should read nodes, neighbourhoods, questions and waiting runs exactly as Prisma reads them', async () => {
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
    const prisma = prismaAgentReads(db.read as unknown as Db);
    const reads = db.agentReads;
    for (const id of [seeded.root.id, seeded.first.id, seeded.second.id, 'no-such-node']) {
      expect(await reads.nodeMapId(id)).toEqual(await prisma.nodeMapId(id));
      expect(await reads.neighbourhood(id)).toEqual(await prisma.neighbourhood(id));
    }
    const root = (await reads.neighbourhood(seeded.root.id))!;
    expect(root.node.children.map((c) => c.question)).toEqual(['Who buys?', 'Which channel?']);
    expect(root.childDependencies).toEqual([{ nodeId: seeded.second.id, dependsOnId: seeded.first.id }]);
    expect(root.node.map.constraints).toEqual(['under 5 €', '两周内']);
    expect(root.node.map.autoRun).toBe(false);
    const second = (await reads.neighbourhood(seeded.second.id))!.node;
    expect(second.staleSince).toEqual(new Date(6_000));
    expect(second.dependencies.map((d) => d.dependsOn.question)).toEqual(['Who buys?']);
    expect(await reads.question(seeded.question.id)).toEqual(await prisma.question(seeded.question.id));
    expect((await reads.question(seeded.question.id))?.context).toEqual({ draft: { conclusion: '是' }, n: 2 });
    expect(await reads.question('no-such-question')).toBeNull();
    expect(await reads.waitingRuns(seeded.map.id)).toEqual(await prisma.waitingRuns(seeded.map.id));
    expect((await reads.waitingRuns(seeded.map.id)).map((r) => r.id)).toEqual([seeded.run.id]);
    expect(await reads.waitingRuns()).toEqual(await prisma.waitingRuns());
    expect(await reads.waitingRuns('no-such-map')).toEqual([]);
  });
});
