import type { Dependency, Node, ReadDb } from '@thinkingmap/db';
import DataLoader from 'dataloader';

/** Per-request batch loaders: every node of a response shares one query per relation. */
export interface Loaders {
  /** What each node depends on. */
  dependenciesOf: DataLoader<string, Dependency[]>;
  /** What depends on each node. */
  dependentsOf: DataLoader<string, Dependency[]>;
  /** Nodes by id (null when deleted). */
  nodeById: DataLoader<string, Node | null>;
}

function groupBy(rows: Dependency[], key: 'nodeId' | 'dependsOnId', ids: readonly string[]): Dependency[][] {
  const groups = new Map<string, Dependency[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(row[key])?.push(row);
  return ids.map((id) => groups.get(id) ?? []);
}

/** Creates the loaders for one request. */
export function createLoaders(db: ReadDb): Loaders {
  return {
    dependenciesOf: new DataLoader(async (ids) =>
      groupBy(
        await db.dependency.findMany({ where: { nodeId: { in: [...ids] } }, orderBy: { createdAt: 'asc' } }),
        'nodeId',
        ids,
      ),
    ),
    dependentsOf: new DataLoader(async (ids) =>
      groupBy(
        await db.dependency.findMany({ where: { dependsOnId: { in: [...ids] } }, orderBy: { createdAt: 'asc' } }),
        'dependsOnId',
        ids,
      ),
    ),
    nodeById: new DataLoader(async (ids) => {
      const rows = await db.node.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
