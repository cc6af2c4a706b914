import type { Node } from '@thinkingmap/db';
import { isInSubtree, subtreeIds } from '@thinkingmap/map-graph';
import { z } from 'zod';
import { ValidationError } from '../errors/domain-errors.ts';
import { toWire } from '../events/map-event.ts';
import type { CommandContext } from './context.ts';
import { id, parseInput, position } from './input.ts';
import { mapIdOfNode, mutateMap } from './mutate-map.ts';
import { loadNodeInMap, placeAmongSiblings } from './node-commands.ts';
import { refreshBlocked } from './node-status.ts';

/** Deletes a node with its whole subtree, their dependencies, context items and conversations. */
export async function deleteNode(
  ctx: CommandContext,
  raw: unknown,
): Promise<{ nodeIds: string[]; dependencyIds: string[] }> {
  const { id: nodeId } = parseInput(z.object({ id }), raw);
  const mapId = await mapIdOfNode(ctx, nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    await loadNodeInMap(tx, nodeId, mapId);
    const all = await tx.node.findMany({ where: { mapId }, select: { id: true, parentId: true } });
    const nodeIds = subtreeIds(all, nodeId);
    const doomed = new Set(nodeIds);
    const dependencies = await tx.dependency.findMany({
      where: { OR: [{ nodeId: { in: nodeIds } }, { dependsOnId: { in: nodeIds } }] },
    });
    const survivors = dependencies.filter((d) => !doomed.has(d.nodeId)).map((d) => d.nodeId);
    await tx.dependency.deleteMany({ where: { id: { in: dependencies.map((d) => d.id) } } });
    await tx.message.deleteMany({ where: { conversation: { nodeId: { in: nodeIds } } } });
    await tx.conversation.deleteMany({ where: { nodeId: { in: nodeIds } } });
    await tx.contextItem.deleteMany({ where: { nodeId: { in: nodeIds } } });
    await tx.agentRun.updateMany({ where: { nodeId: { in: nodeIds } }, data: { nodeId: null } });
    await tx.node.deleteMany({ where: { id: { in: nodeIds } } });
    const dependencyIds = dependencies.map((d) => d.id);
    emit({ type: 'NodeDeleted', payload: { nodeIds, dependencyIds } });
    await refreshBlocked(tx, survivors, emit);
    return { nodeIds, dependencyIds };
  });
}

export const moveNodeInput = z.object({ id, parentId: id, position: position.nullish() });

/**
 * Moves a node (with its subtree) under another parent of the same map. Refused when the new parent is
 * the node itself or one of its descendants, and when the move would put a node under one it depends on.
 */
export async function moveNode(ctx: CommandContext, raw: unknown): Promise<Node> {
  const input = parseInput(moveNodeInput, raw);
  const mapId = await mapIdOfNode(ctx, input.id);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, input.id, mapId);
    await loadNodeInMap(tx, input.parentId, mapId, 'parentId');
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
    emit({ type: 'NodeUpdated', payload: { node: toWire(updated), fields: ['parentId', 'position'] } });
    return updated;
  });
}
