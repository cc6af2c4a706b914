import type { Tx } from '@thinkingmap/db';
import {
  isoDate,
  mapSnapshot,
  nodeSnapshot,
  toContextItemSnapshot,
  toDependencySnapshot,
  toMapSnapshot,
  toNodeSnapshot,
} from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';
import { removeNodeRows } from '../maps/tree-commands.ts';
import { archiveAsWanted, emitMessages, hideAndShowMessages } from './apply-messages.ts';
import { diffFields } from './map-changes.ts';
import { type Entity, fieldOf, type MapState, type NodeArchives, TRACKED_FIELDS } from './map-state.ts';
import { parentsFirst } from './parents-first.ts';
import { restoreNodeContent } from './restore-node-content.ts';

const rowDate = isoDate.nullable().transform((iso) => (iso === null ? null : new Date(iso)));

/** The fields a node's row is written from when the history sets them (dates back to Date), any of them. */
const NODE_DATA = nodeSnapshot
  .omit({ id: true, mapId: true, version: true, createdAt: true, updatedAt: true })
  .extend({ concludedAt: rowDate, staleSince: rowDate })
  .partial();
const MAP_DATA = mapSnapshot
  .pick({
    title: true,
    problem: true,
    goal: true,
    constraints: true,
    language: true,
    mode: true,
    status: true,
    autoRun: true,
    tokenBudget: true,
  })
  .partial();

/** Some of a snapshot's tracked fields by name, as its entity has them. */
const fieldsOf = (entity: Entity, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, fieldOf(entity, field) ?? null]));

/**
 * Brings the entities named in `target` to the given versions (null: absent) inside a command's transaction,
 * emitting the events a person's own edits would: NodeCreated / NodeUpdated / NodeDeleted, DependencyAdded /
 * DependencyRemoved, ContextUpdated, MapUpdated, and MessagesChanged for messages hidden or shown again.
 * `current` is the map as its log says it is now. A recreated node gets its old id and fields back, and from
 * `archives` (what its last deletion removed) its conversations with their messages (those the target takes away
 * hidden) and the context items the target keeps; a node deleted before deletions kept them gets empty
 * conversations.
 */
export async function applyState(
  tx: Tx,
  emit: Emit,
  mapId: string,
  current: MapState,
  target: ReadonlyMap<string, Entity | null>,
  archives: NodeArchives,
): Promise<void> {
  const now = (key: string) => current.get(key) ?? null;
  const wanted = [...target];
  const removedDeps = wanted.filter(([k, v]) => v === null && now(k)?.kind === 'DEPENDENCY').map(([k]) => now(k)!);
  const removedNodes = wanted.filter(([k, v]) => v === null && now(k)?.kind === 'NODE').map(([k]) => now(k)!.id);
  // Dependencies of removed nodes go with them.
  const gone = new Set(removedNodes);
  const depsOfGone = [...current.values()].filter(
    (e) => e.kind === 'DEPENDENCY' && (gone.has(e.value.nodeId) || gone.has(e.value.dependsOnId)),
  );
  const dropped = new Map(
    [...removedDeps, ...depsOfGone].flatMap((e) => (e.kind === 'DEPENDENCY' ? [[e.id, e.value] as const] : [])),
  );
  // Context items of the nodes that stay are removed one by one; those of removed nodes go with them.
  for (const [key, entity] of wanted) {
    const item = now(key);
    if (entity !== null || item?.kind !== 'CONTEXT_ITEM' || gone.has(item.value.nodeId)) continue;
    await tx.contextItem.delete({ where: { id: item.id } });
    emit({ type: 'ContextUpdated', payload: { nodeId: item.value.nodeId, action: 'REMOVED', item: item.value } });
  }
  for (const dependency of dropped.values()) {
    if (!gone.has(dependency.nodeId) && !gone.has(dependency.dependsOnId)) {
      await tx.dependency.delete({ where: { id: dependency.id } });
      emit({ type: 'DependencyRemoved', payload: { dependency } });
    }
  }
  if (removedNodes.length) {
    const dependencyIds = [...dropped.values()]
      .filter((d) => gone.has(d.nodeId) || gone.has(d.dependsOnId))
      .map((d) => d.id);
    await tx.dependency.deleteMany({ where: { id: { in: dependencyIds } } });
    const archive = await removeNodeRows(tx, removedNodes);
    emit({ type: 'NodeDeleted', payload: { nodeIds: removedNodes, dependencyIds, archive } });
  }
  const created = wanted.flatMap(([k, v]) => (v?.kind === 'NODE' && !now(k) ? [v.value] : []));
  for (const snapshot of parentsFirst(created)) {
    const entity = { kind: 'NODE', id: snapshot.id, value: snapshot } as const;
    const node = await tx.node.create({
      data: {
        ...NODE_DATA.parse(fieldsOf(entity, TRACKED_FIELDS.NODE)),
        id: snapshot.id,
        mapId,
        question: snapshot.question,
        constraints: snapshot.constraints,
        version: snapshot.version + 1,
      },
    });
    emit({ type: 'NodeCreated', payload: { node: toNodeSnapshot(node) } });
  }
  const at = new Date().toISOString();
  const restored = created.map((node) => {
    const archive = archives.get(node.id);
    return { nodeId: node.id, archive: archive && archiveAsWanted(archive, target, at) };
  });
  await restoreNodeContent(tx, mapId, restored);
  // What came back with the recreated nodes is told as a person's own additions would be.
  const restoredItems = restored.flatMap(({ archive }) => archive?.contextItems ?? []);
  for (const item of restoredItems)
    emit({ type: 'ContextUpdated', payload: { nodeId: item.nodeId, action: 'ADDED', item } });
  const restoredMessages = restored.flatMap(({ nodeId, archive }) =>
    (archive?.conversations ?? []).flatMap((c) =>
      c.messages.map((m) => ({ ...m, conversationId: c.id, nodeId })).filter((m) => m.deletedAt === null),
    ),
  );
  emitMessages(emit, restoredMessages);
  const back = new Set(restoredItems.map((item) => item.id));
  await hideAndShowMessages(tx, emit, current, target, {
    removedNodes: gone,
    restored: new Set(restoredMessages.map((m) => m.id)),
  });
  for (const [key, entity] of wanted) {
    const was = now(key);
    if (!entity || !was || (entity.kind !== 'NODE' && entity.kind !== 'MAP')) continue;
    const fields = diffFields(entity.kind, was, entity).map((d) => d.field);
    if (fields.length === 0) continue;
    const version = { increment: 1 };
    if (entity.kind === 'NODE') {
      const data = { ...NODE_DATA.parse(fieldsOf(entity, fields)), version };
      const node = await tx.node.update({ where: { id: entity.id }, data });
      emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(node), fields } });
    } else {
      const data = { ...MAP_DATA.parse(fieldsOf(entity, fields)), version };
      const map = await tx.map.update({ where: { id: entity.id }, data });
      emit({ type: 'MapUpdated', payload: { map: toMapSnapshot(map), fields } });
    }
  }
  for (const [key, entity] of wanted) {
    if (entity?.kind !== 'DEPENDENCY' || now(key)) continue;
    const { id, nodeId, dependsOnId } = entity.value;
    const dependency = await tx.dependency.create({ data: { id, mapId, nodeId, dependsOnId } });
    emit({ type: 'DependencyAdded', payload: { dependency: toDependencySnapshot(dependency) } });
  }
  for (const [key, entity] of wanted) {
    if (entity?.kind !== 'CONTEXT_ITEM' || now(key) || back.has(entity.id)) continue;
    const { id, nodeId, title, content, createdAt } = entity.value;
    const item = await tx.contextItem.create({
      data: { id, mapId, nodeId, title, content, createdAt: new Date(createdAt) },
    });
    emit({ type: 'ContextUpdated', payload: { nodeId, action: 'ADDED', item: toContextItemSnapshot(item) } });
  }
}
