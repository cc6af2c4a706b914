import type { Dependency } from '@thinkingmap/db';
import { findCycle, isInSubtree } from '@thinkingmap/map-graph';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { CycleError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { toDependencySnapshot } from '../commands/event-snapshots.ts';
import { id, parseInput } from '../commands/input.ts';
import { mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { loadNodeInMap } from './node-commands.ts';
import { refreshBlocked } from './node-status.ts';

export const dependencyInput = z.object({ nodeId: id, dependsOnId: id });

/**
 * Makes `nodeId` depend on `dependsOnId`. Refused for the node itself, a node of another map, an ancestor
 * or descendant (a parent concludes from its children, so it cannot also wait for them or they for it),
 * an existing dependency, and any edge that would close a cycle (the error names the cycle's path).
 */
export async function addDependency(ctx: CommandContext, raw: unknown): Promise<Dependency> {
  const input = parseInput(dependencyInput, raw);
  if (input.nodeId === input.dependsOnId) throw new ValidationError('dependsOnId', 'a node cannot depend on itself');
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    await loadNodeInMap(tx, input.nodeId, mapId);
    // A node of another map answers as an unknown one: a reference never tells whether an id exists elsewhere.
    await loadNodeInMap(tx, input.dependsOnId, mapId);
    const tree = await tx.node.findMany({ where: { mapId }, select: { id: true, parentId: true, question: true } });
    if (isInSubtree(tree, input.nodeId, input.dependsOnId) || isInSubtree(tree, input.dependsOnId, input.nodeId)) {
      throw new ValidationError('dependsOnId', 'a node cannot depend on its own ancestor or descendant');
    }
    const edges = await tx.dependency.findMany({ where: { mapId }, select: { nodeId: true, dependsOnId: true } });
    if (edges.some((e) => e.nodeId === input.nodeId && e.dependsOnId === input.dependsOnId)) {
      throw new ValidationError('dependsOnId', 'this dependency already exists');
    }
    const cycle = findCycle(edges, input);
    if (cycle) {
      const questions = new Map(tree.map((n) => [n.id, n.question]));
      throw new CycleError(
        cycle,
        cycle.map((nodeId) => questions.get(nodeId) ?? nodeId),
      );
    }
    const dependency = await tx.dependency.create({ data: { mapId, ...input } });
    emit({ type: 'DependencyAdded', payload: { dependency: toDependencySnapshot(dependency) } });
    await refreshBlocked(tx, [input.nodeId], emit);
    return dependency;
  });
}

/** Removes a dependency; the node becomes ready if nothing else holds it back. */
export async function removeDependency(ctx: CommandContext, raw: unknown): Promise<Dependency> {
  const input = parseInput(dependencyInput, raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const dependency = await tx.dependency.findUnique({ where: { nodeId_dependsOnId: input } });
    if (!dependency || dependency.mapId !== mapId)
      throw new NotFoundError('Dependency', `${input.nodeId}→${input.dependsOnId}`);
    await tx.dependency.delete({ where: { id: dependency.id } });
    emit({ type: 'DependencyRemoved', payload: { dependency: toDependencySnapshot(dependency) } });
    await refreshBlocked(tx, [input.nodeId], emit);
    return dependency;
  });
}
