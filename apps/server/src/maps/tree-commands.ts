import type { Node, Tx } from '@thinkingmap/db';
import { isInSubtree, subtreeIds } from '@thinkingmap/map-graph';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ValidationError } from '../commands/domain-errors.ts';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import { id, parseInput, position } from '../commands/input.ts';
import { mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import type { NodeArchive } from '../commands/node-archive.ts';
import { loadNodeInMap, placeAmongSiblings } from './node-commands.ts';
import { refreshBlocked } from './node-status.ts';
import { readNodeArchives } from './read-node-archives.ts';
import { markStale } from './stale-conclusions.ts';

/**
 * Deletes nodes' rows with their conversations, messages and context items; their runs lose the node. Returns
 * what it removed of each node (its archive), for the NodeDeleted event: nothing said on a node is lost.
 */
export async function removeNodeRows(tx: Tx, nodeIds: string[]): Promise<NodeArchive[]> {
  const archive = await readNodeArchives(tx, nodeIds);
  await tx.message.deleteMany({ where: { conversation: { nodeId: { in: nodeIds } } } });
  await tx.conversation.deleteMany({ where: { nodeId: { in: nodeIds } } });
  await tx.contextItem.deleteMany({ where: { nodeId: { in: nodeIds } } });
  await tx.agentRun.updateMany({ where: { nodeId: { in: nodeIds } }, data: { nodeId: null } });
  await tx.node.deleteMany({ where: { id: { in: nodeIds } } });
  return archive;
}

/**
 * Deletes a node with its whole subtree, their dependencies, context items and conversations (kept in the
 * event's archive, so an undo brings them back). The parent's conclusion is then out of date (`CHILD_REMOVED`),
 * and so is that of any node left that depended on a deleted one (`DEPENDENCY_CHANGED`).
 */
export async function deleteNode(
  ctx: CommandContext,
  raw: unknown,
): Promise<{ nodeIds: string[]; dependencyIds: string[] }> {
  const { id: nodeId } = parseInput(z.object({ id }), raw);
  const mapId = await mapIdOfNode(ctx, nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const deleted = await loadNodeInMap(tx, nodeId, mapId);
    const all = await tx.node.findMany({ where: { mapId }, select: { id: true, parentId: true, question: true } });
    const nodeIds = subtreeIds(all, nodeId);
    const doomed = new Set(nodeIds);
    const dependencies = await tx.dependency.findMany({
      where: { OR: [{ nodeId: { in: nodeIds } }, { dependsOnId: { in: nodeIds } }] },
    });
    const survivors = dependencies.filter((d) => !doomed.has(d.nodeId)).map((d) => d.nodeId);
    await tx.dependency.deleteMany({ where: { id: { in: dependencies.map((d) => d.id) } } });
    const archive = await removeNodeRows(tx, nodeIds);
    const dependencyIds = dependencies.map((d) => d.id);
    emit({ type: 'NodeDeleted', payload: { nodeIds, dependencyIds, archive } });
    await refreshBlocked(tx, survivors, emit);
    const questionOf = new Map(all.map((n) => [n.id, n.question]));
    await markStale(tx, emit, [
      ...(deleted.parentId ? [{ nodeId: deleted.parentId, reason: 'CHILD_REMOVED' as const, source: deleted }] : []),
      ...dependencies
        .filter((d) => !doomed.has(d.nodeId))
        .map((d) => ({
          nodeId: d.nodeId,
          reason: 'DEPENDENCY_CHANGED' as const,
          source: { id: d.dependsOnId, question: questionOf.get(d.dependsOnId) ?? '' },
        })),
    ]);
    return { nodeIds, dependencyIds };
  });
}

export const moveNodeInput = z.object({ id, parentId: id, position: position.nullish() });

/**
 * Moves a node (with its subtree) under another parent of the same map. Refused when the new parent is
 * the node itself or one of its descendants, and when the move would put a node under one it depends on.
 * Moved to another parent, it leaves both parents' conclusions out of date (`CHILD_REMOVED`, `CHILD_ADDED`).
 */
export async function moveNode(ctx: CommandContext, raw: unknown): Promise<Node> {
  const input = parseInput(moveNodeInput, raw);
  const mapId = await mapIdOfNode(ctx, input.id);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, input.id, mapId);
    await loadNodeInMap(tx, input.parentId, mapId);
    if (node.parentId === null) throw new ValidationError('id', 'the root cannot be moved');
    const all = await tx.node.findMany({ where: { mapId }, select: { id: true, parentId: true } });
    if (isInSubtree(all, node.id, input.parentId)) {
      throw new ValidationError('parentId', 'a node cannot be moved under itself or its own descendant');
    }
    const moved = new Set(subtreeIds(all, node.id));
    const after = all.map((n) => (n.id === node.id ? { ...n, parentId: input.parentId } : n));
    const crossing = await tx.dependency.findMany({
      where: { mapId, OR: [{ nodeId: { in: [...moved] } }, { dependsOnId: { in: [...moved] } }] },
    });
    for (const d of crossing) {
      if (moved.has(d.nodeId) === moved.has(d.dependsOnId)) continue;
      if (isInSubtree(after, d.nodeId, d.dependsOnId) || isInSubtree(after, d.dependsOnId, d.nodeId)) {
        throw new ValidationError('parentId', 'the move would put a node above or below a node it depends on');
      }
    }
    const at = await placeAmongSiblings(tx, mapId, input.parentId, input.position, emit, node.id);
    const updated = await tx.node.update({
      where: { id: node.id },
      data: { parentId: input.parentId, position: at, version: { increment: 1 } },
    });
    emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields: ['parentId', 'position'] } });
    if (node.parentId !== input.parentId)
      await markStale(tx, emit, [
        { nodeId: node.parentId, reason: 'CHILD_REMOVED', source: node },
        { nodeId: input.parentId, reason: 'CHILD_ADDED', source: node },
      ]);
    return updated;
  });
}
