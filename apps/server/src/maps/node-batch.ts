import type { ConversationKind, Node, RowInserts, Tx } from '@thinkingmap/db';
import { ValidationError } from '../commands/domain-errors.ts';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';
import { newId } from '../commands/new-id.ts';
import { markStale } from './stale-conclusions.ts';

/** The most nodes one batch (`createNodes`, an import) writes. */
export const MAX_BATCH_NODES = 2_000;

/** What a batch may set of a node besides its text: an import's statuses, conclusions and what agents chose. */
export type NodeState = Partial<
  Pick<
    Node,
    | 'status'
    | 'statusReason'
    | 'intent'
    | 'strategy'
    | 'conclusion'
    | 'conclusionKind'
    | 'staleReason'
    | 'staleSourceQuestion'
    | 'divergentRole'
    | 'divergentLevel'
    | 'completionScore'
  >
>;

/** One node of a batch, its text already checked; its parent is another node of the batch or one of the map. */
export interface BatchNode {
  /** The caller's key for it, unique in the batch. */
  key: string;
  parentKey: string | null;
  parentId: string | null;
  question: string;
  goal: string;
  constraints: string[];
  state?: NodeState;
  /** Its place among the children of its parent in the map, made free by the caller; else after them. */
  position?: number;
  /** Where the caller sent it (`nodes[3]`, `tree[0].children[1]`, `line 7`), for an error to name. */
  where: string;
}

/** The nodes a batch wrote, by key, and each node's conversation ids by kind. */
export interface WrittenBatch {
  nodes: Map<string, Node>;
  conversations: Map<string, Record<ConversationKind, string>>;
}

/**
 * The batch's nodes with parents before children, each parent known: a key of the batch or an id of the map.
 * Refuses an unknown or repeated key, a parent named twice or not at all, and parent keys that go round in a circle.
 */
function parentsFirst(nodes: readonly BatchNode[], existing: ReadonlySet<string>): BatchNode[] {
  const byKey = new Map<string, BatchNode>();
  for (const node of nodes) {
    if (byKey.has(node.key)) throw new ValidationError(`${node.where}.key`, `the key ${node.key} is used twice`);
    byKey.set(node.key, node);
  }
  const below = new Map<string | null, BatchNode[]>();
  for (const node of nodes) {
    if (node.parentKey !== null && node.parentId !== null)
      throw new ValidationError(node.where, 'give parentKey or parentId, not both');
    if (node.parentKey !== null && !byKey.has(node.parentKey))
      throw new ValidationError(`${node.where}.parentKey`, `no node of the batch has the key ${node.parentKey}`);
    if (node.parentId !== null && !existing.has(node.parentId))
      throw new ValidationError(`${node.where}.parentId`, `Node ${node.parentId} was not found in the map`);
    const list = below.get(node.parentKey);
    if (list) list.push(node);
    else below.set(node.parentKey, [node]);
  }
  const order: BatchNode[] = [];
  const stack = nodes.filter((node) => node.parentKey === null).reverse();
  while (stack.length) {
    const node = stack.pop()!;
    order.push(node);
    stack.push(...(below.get(node.key) ?? []).slice().reverse());
  }
  if (order.length < nodes.length) {
    const placed = new Set(order.map((node) => node.key));
    const stuck = nodes.find((node) => !placed.has(node.key))!;
    throw new ValidationError(`${stuck.where}.parentKey`, 'the parent keys go round in a circle');
  }
  return order;
}

/**
 * Writes a batch of nodes in the caller's transaction on `mapId`, in a few multi-row statements whatever their
 * number (`inserts`): the nodes (appended after their parents' existing children, in the batch's order) and their two
 * conversations each. Emits NodeCreated for each, parents first; an existing parent that was concluded is then out
 * of date (`CHILD_ADDED`), as with `createNode`. With `oneRoot`, refuses a root when the map has one or the batch
 * brings several (a map made by hand has one root; an imported file may have more).
 */
export async function writeNodeBatch(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  mapId: string,
  batch: readonly BatchNode[],
  options: { oneRoot: boolean },
): Promise<WrittenBatch> {
  const parentIds = [...new Set(batch.flatMap((node) => (node.parentId ? [node.parentId] : [])))];
  const found = parentIds.length
    ? await tx.node.findMany({ where: { mapId, id: { in: parentIds } }, select: { id: true, question: true } })
    : [];
  const ordered = parentsFirst(batch, new Set(found.map((node) => node.id)));
  const roots = ordered.filter((node) => node.parentKey === null && node.parentId === null);
  const existingRoots = roots.length ? await tx.node.count({ where: { mapId, parentId: null } }) : 0;
  if (options.oneRoot && roots.length && (existingRoots > 0 || roots.length > 1))
    throw new ValidationError(`${roots[existingRoots > 0 ? 0 : 1]!.where}.parentId`, 'the map can have one root');
  // The next free position under each existing parent (and among the roots).
  const next = new Map<string | null, number>();
  if (parentIds.length) {
    const ends = await tx.node.groupBy({
      by: ['parentId'],
      where: { mapId, parentId: { in: parentIds } },
      _max: { position: true },
    });
    for (const end of ends) next.set(end.parentId, (end._max.position ?? -1) + 1);
  }
  if (roots.length) next.set(null, existingRoots);
  const now = new Date();
  const ids = new Map<string, string>();
  const nodes = new Map<string, Node>();
  const conversations = new Map<string, Record<ConversationKind, string>>();
  for (const item of ordered) {
    const id = newId();
    ids.set(item.key, id);
    const parentId = item.parentKey !== null ? ids.get(item.parentKey)! : item.parentId;
    const position = item.position ?? next.get(parentId) ?? 0;
    if (item.position === undefined) next.set(parentId, position + 1);
    const state = item.state ?? {};
    const concluded = state.status === 'COMPLETED' && state.conclusion != null;
    nodes.set(item.key, {
      id,
      mapId,
      parentId,
      position,
      question: item.question,
      goal: item.goal,
      constraints: item.constraints,
      type: parentId ? 'TASK' : 'ROOT',
      status: state.status ?? 'READY',
      statusReason: state.statusReason ?? null,
      intent: state.intent ?? null,
      strategy: state.strategy ?? null,
      conclusion: state.conclusion ?? null,
      conclusionKind: state.conclusionKind ?? null,
      divergentRole: state.divergentRole ?? null,
      divergentLevel: state.divergentLevel ?? null,
      completionScore: state.completionScore ?? null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      concludedAt: concluded ? now : null,
      staleReason: state.staleReason ?? null,
      staleSourceId: null,
      staleSourceQuestion: state.staleSourceQuestion ?? null,
      staleSince: state.staleReason ? now : null,
    });
    conversations.set(item.key, { DECOMPOSE: newId(), CONCLUDE: newId() });
  }
  const rows = [...nodes.values()];
  await inserts.insert(
    tx,
    'Node',
    ordered.map((item) => ({ ...nodes.get(item.key)!, constraints: JSON.stringify(item.constraints) })),
  );
  await inserts.insert(
    tx,
    'Conversation',
    [...conversations].flatMap(([key, byKind]) => [
      { id: byKind.DECOMPOSE, nodeId: ids.get(key)!, mapId, kind: 'DECOMPOSE' as const, createdAt: now },
      { id: byKind.CONCLUDE, nodeId: ids.get(key)!, mapId, kind: 'CONCLUDE' as const, createdAt: now },
    ]),
  );
  for (const row of rows) emit({ type: 'NodeCreated', payload: { node: toNodeSnapshot(row) } });
  // A concluded parent did not consider its new children.
  const firstChild = new Map<string, Node>();
  for (const item of ordered)
    if (item.parentId && !firstChild.has(item.parentId)) firstChild.set(item.parentId, nodes.get(item.key)!);
  await markStale(
    tx,
    emit,
    [...firstChild].map(([nodeId, source]) => ({ nodeId, reason: 'CHILD_ADDED' as const, source })),
  );
  return { nodes, conversations };
}
