import type { Database } from '@thinkingmap/db';
import { createId } from './ids.ts';

/**
 * Seeds a map of `size` nodes: a root, ~√size children, the rest spread as grandchildren, and a chain of
 * sibling dependencies on every third grandchild. Bulk inserts: this measures reads, not seeding.
 */
export async function seedMap(db: Database, ownerId: string, size: number): Promise<string> {
  const map = await db.write((tx) =>
    tx.map.create({ data: { ownerId, title: `Benchmark map (${size} nodes)`, constraints: [] } }),
  );
  const rootId = createId();
  const nodes: { id: string; parentId: string | null; position: number; question: string }[] = [
    {
      id: rootId,
      parentId: null,
      position: 0,
      question: '如何规划一个千节点的思考地图? / How to plan a 1,000-node map?',
    },
  ];
  const childCount = Math.max(1, Math.round(Math.sqrt(size)));
  const children = Array.from({ length: childCount }, (_, i) => ({
    id: createId(),
    parentId: rootId,
    position: i,
    question: `Sub-question ${i + 1}: what matters most here?`,
  }));
  nodes.push(...children);
  const dependencies: { nodeId: string; dependsOnId: string }[] = [];
  let remaining = size - nodes.length;
  for (let i = 0; remaining > 0; i++, remaining--) {
    const parent = children[i % childCount]!;
    const position = Math.floor(i / childCount);
    const node = {
      id: createId(),
      parentId: parent.id,
      position,
      question: `Detail ${i + 1} under ${parent.position + 1}: 需要哪些证据?`,
    };
    const previous = nodes.findLast((n) => n.parentId === parent.id);
    if (previous && i % 3 === 0) dependencies.push({ nodeId: node.id, dependsOnId: previous.id });
    nodes.push(node);
  }
  await db.write(async (tx) => {
    await tx.node.createMany({
      data: nodes.map((n) => ({
        ...n,
        mapId: map.id,
        goal: 'Find the decisive facts',
        constraints: [],
        status: 'READY' as const,
        type: n.parentId ? ('TASK' as const) : ('ROOT' as const),
      })),
    });
    await tx.dependency.createMany({ data: dependencies.map((d) => ({ ...d, id: createId(), mapId: map.id })) });
  });
  return map.id;
}
