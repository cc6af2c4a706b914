import { CREATE_MAP, CREATE_NODE, type ThinkingMapClient } from '@thinkingmap/client';
import { call } from './api.ts';
import type { WebServer } from './web-server.ts';

/** A tree of questions to create: each question with the questions under it. */
export interface TreeSpec {
  [question: string]: TreeSpec;
}

/**
 * Creates a map (without the understanding agent) and its tree through the API, as a person would; returns the
 * map's id and each question's node id.
 */
export async function createMapWithTree(api: ThinkingMapClient, title: string, tree: TreeSpec, language?: 'en' | 'zh') {
  const map = await call(api.client, CREATE_MAP, {
    input: { title, understand: false, ...(language ? { language } : {}) },
  });
  const ids = new Map<string, string>();
  const add = async (parentId: string | null, spec: TreeSpec) => {
    for (const [question, below] of Object.entries(spec)) {
      const node = await call(api.client, CREATE_NODE, { input: { mapId: map.id, parentId, question } });
      ids.set(question, node.id);
      await add(node.id, below);
    }
  };
  await add(null, tree);
  return { mapId: map.id, ids };
}

/** A cuid-shaped id (the API's id format) for rows placed directly. */
function cuid(): string {
  let id = 'c';
  while (id.length < 25) id += Math.floor(Math.random() * 36).toString(36);
  return id;
}

/**
 * A map of `count` nodes, each with up to `branching` children, breadth first. The nodes are written to the
 * database directly (creating thousands through the API one by one only measures the API), so the browser loads
 * a map it has never seen; the map itself is created through the API.
 */
export async function createBigMap(server: WebServer, title: string, count: number, branching: number) {
  const map = await call(server.api.client, CREATE_MAP, { input: { title, understand: false } });
  const ids = Array.from({ length: count }, cuid);
  const rows = ids.map((id, i) => ({
    id,
    mapId: map.id,
    parentId: i === 0 ? null : ids[Math.floor((i - 1) / branching)]!,
    position: i === 0 ? 0 : (i - 1) % branching,
    question: `Question ${i}: what about part ${i} of the plan?`,
    goal: i % 3 === 0 ? `Goal ${i}` : '',
    constraints: [],
    type: i === 0 ? ('ROOT' as const) : ('TASK' as const),
    status: 'READY' as const,
  }));
  for (let at = 0; at < rows.length; at += 400)
    await server.db.write((tx) => tx.node.createMany({ data: rows.slice(at, at + 400) }));
  return { mapId: map.id, ids };
}
