import { ADD_DEPENDENCY, CREATE_MAP, CREATE_NODE, UPDATE_MAP, type VariablesOf } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { addContextItem, postMessage } from '../../src/maps/conversation-commands.ts';
import { addDependency as addDependencyCommand } from '../../src/maps/dependency-commands.ts';
import { createMap as createMapCommand } from '../../src/maps/map-commands.ts';
import { createNodes as createNodesCommand } from '../../src/maps/node-batch-commands.ts';
import { attempt, call, type TestServer } from './test-server.ts';

/** Creates a map and returns its id; fails the test on a typed error. */
export async function createMap(
  client: Client,
  title = 'Plan a product launch',
  extra: Omit<VariablesOf<typeof CREATE_MAP>['input'], 'title'> = {},
) {
  const map = await call(client, CREATE_MAP, { input: { title, ...extra } });
  return map.id;
}

/** Creates a node and returns it; fails the test on a typed error. */
export async function createNode(client: Client, mapId: string, question: string, parentId?: string) {
  return call(client, CREATE_NODE, { input: { mapId, question, parentId } });
}

/** Adds a dependency and returns the typed result (a refusal included). */
export async function addDependency(client: Client, nodeId: string, dependsOnId: string) {
  return attempt(client, ADD_DEPENDENCY, { nodeId, dependsOnId });
}

/**
 * Builds root → 3 children → 2 grandchildren each (a 3-level map of 10 nodes).
 * Returns ids by name: root, a, b, c, a1, a2, b1, b2, c1, c2.
 */
export async function buildThreeLevelMap(client: Client, mapId: string) {
  const root = await createNode(client, mapId, '如何发布一款学习工具? / How to launch a learning tool?');
  const ids: Record<string, string> = { root: root.id };
  for (const name of ['a', 'b', 'c']) {
    ids[name] = (await createNode(client, mapId, `Question ${name}`, root.id)).id;
    for (const n of [1, 2])
      ids[`${name}${n}`] = (await createNode(client, mapId, `Question ${name}${n}`, ids[name])).id;
  }
  return ids as Record<'root' | 'a' | 'b' | 'c' | 'a1' | 'a2' | 'b1' | 'b2' | 'c1' | 'c2', string>;
}

/** A map with one root node, made by hand; `extra` as {@link createMap}'s (e.g. `understand: false`). */
export async function mapWithRoot(
  client: Client,
  question = 'Plan a product launch',
  extra: Omit<VariablesOf<typeof CREATE_MAP>['input'], 'title'> = {},
) {
  const mapId: string = await createMap(client, question, extra);
  const root = await createNode(client, mapId, question);
  return { mapId, rootId: root.id as string };
}

/** A map with one root node whose runs start only when asked (`autoRun` off): nothing concludes by itself. */
export async function manualMapWithRoot(client: Client, question: string) {
  const made = await mapWithRoot(client, question);
  await call(client, UPDATE_MAP, { input: { id: made.mapId, autoRun: false } });
  return made;
}

/**
 * A map of `size` nodes (a tree, three children a node) built through the command layer, as fast as commands go:
 * every third node has a context item and a message in each conversation, every third a dependency on its
 * previous sibling. Returns the map's id and what it holds.
 */
export async function buildLargeMap(server: Pick<TestServer, 'db' | 'app'>, ownerId: string, size: number) {
  const ctx = { db: server.db, bus: server.app.bus, viewer: { id: ownerId } };
  const map = await createMapCommand(ctx, { title: `${size} nodes`, understand: false });
  // The tree in one command (node i's parent is node (i - 1) / 3), then what some nodes hold, one command each.
  const created = await createNodesCommand(ctx, {
    mapId: map.id,
    nodes: Array.from({ length: size }, (_, i) => ({
      key: `n${i}`,
      parentKey: i === 0 ? null : `n${Math.floor((i - 1) / 3)}`,
      question: `question ${i}`,
    })),
  });
  const ids = created.map(({ node }) => node.id);
  let contextItems = 0;
  let messages = 0;
  let dependencies = 0;
  for (const [i, id] of ids.entries()) {
    const node = { id };
    if (i % 3 !== 1) continue;
    await addContextItem(ctx, { nodeId: node.id, title: `source ${i}`, content: `what is known about ${i}` });
    await postMessage(ctx, { nodeId: node.id, conversation: 'DECOMPOSE', content: `how to split ${i}` });
    await postMessage(ctx, { nodeId: node.id, conversation: 'CONCLUDE', content: `what ${i} comes to` });
    contextItems += 1;
    messages += 2;
    if (i > 1) {
      await addDependencyCommand(ctx, { nodeId: node.id, dependsOnId: ids[i - 1]! });
      dependencies += 1;
    }
  }
  return { mapId: map.id, nodeIds: ids, contextItems, messages, dependencies };
}
