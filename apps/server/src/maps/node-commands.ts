import type { Node, RunLog, Tx } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError, ValidationError, VersionConflictError } from '../commands/domain-errors.ts';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import { constraints, id, LIMITS, optionalText, parseInput, position, text, version } from '../commands/input.ts';
import { type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { type BatchNode, writeNodeBatch } from './node-batch.ts';

/**
 * Loads a node and checks it belongs to `mapId`. A node of another map — the caller's or anyone's — is reported as
 * not found, exactly like an unknown id, so a reference never tells whether an id exists elsewhere.
 */
export async function loadNodeInMap(
  tx: Tx,
  nodeId: string,
  mapId: string,
  /** The run log, whose lean read serves where the caller has it (an agent's commands). */
  log?: Pick<RunLog, 'node'>,
): Promise<Node> {
  const node = log ? await log.node(tx, nodeId) : await tx.node.findUnique({ where: { id: nodeId } });
  if (!node || node.mapId !== mapId) throw new NotFoundError('Node', nodeId);
  return node;
}

/** Makes room at `at` among a parent's children, emitting NodeUpdated for every shifted sibling. */
export async function placeAmongSiblings(
  tx: Tx,
  mapId: string,
  parentId: string | null,
  at: number | null | undefined,
  emit: Emit,
  excludeId?: string,
): Promise<number> {
  const siblings = await tx.node.findMany({
    where: { mapId, parentId, ...(excludeId ? { id: { not: excludeId } } : {}) },
    orderBy: { position: 'asc' },
    select: { id: true, position: true },
  });
  const end = (siblings.at(-1)?.position ?? -1) + 1;
  if (at == null || at >= end) return end;
  for (const sibling of siblings.filter((s) => s.position >= at)) {
    const shifted = await tx.node.update({ where: { id: sibling.id }, data: { position: { increment: 1 } } });
    emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(shifted), fields: ['position'] } });
  }
  return at;
}

export const createNodeInput = z.object({
  mapId: id,
  parentId: id.nullish(),
  question: text(LIMITS.question),
  goal: optionalText(LIMITS.goal).default(''),
  constraints: constraints.default([]),
  position: position.nullish(),
});

/**
 * Creates a node (the root when `parentId` is empty) with its two conversations; a concluded parent's
 * conclusion is then out of date (`CHILD_ADDED`).
 */
export async function createNode(
  ctx: CommandContext,
  raw: unknown,
  /** A divergent session's summary, task or final output: its role and level (agents only). */
  divergent?: { role: NonNullable<Node['divergentRole']>; level: number },
): Promise<Node> {
  const input = parseInput(createNodeInput, raw);
  return mutateMap(ctx, input.mapId, async (tx, emit) => {
    const parentId = input.parentId ?? null;
    if (parentId) await loadNodeInMap(tx, parentId, input.mapId);
    else if (await tx.node.count({ where: { mapId: input.mapId, parentId: null } })) {
      throw new ValidationError('parentId', 'the map already has a root; give the parent of the new node');
    }
    const at = await placeAmongSiblings(tx, input.mapId, parentId, input.position, emit);
    const node: BatchNode = {
      key: 'node',
      parentKey: null,
      parentId,
      question: input.question,
      goal: input.goal,
      constraints: input.constraints,
      position: at,
      where: 'input',
      ...(divergent ? { state: { divergentRole: divergent.role, divergentLevel: divergent.level } } : {}),
    };
    // Written as a batch of one: nodes are inserted one way, whether one at a time or many at once.
    const written = await writeNodeBatch(ctx.db.rows, tx, emit, input.mapId, [node], { oneRoot: true });
    return written.nodes.get(node.key)!;
  });
}

export const updateNodeInput = z.object({
  id,
  expectedVersion: version,
  question: text(LIMITS.question).nullish(),
  goal: optionalText(LIMITS.goal).nullish(),
  constraints: constraints.nullish(),
});

/**
 * Edits a node's question, goal or constraints. `expectedVersion` must match: an edit based on a stale
 * copy is refused with VersionConflict and the current version, so nothing the person wrote is lost.
 */
export async function updateNode(ctx: CommandContext, raw: unknown): Promise<Node> {
  const { id: nodeId, expectedVersion, ...patch } = parseInput(updateNodeInput, raw);
  const mapId = await mapIdOfNode(ctx, nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, nodeId, mapId);
    if (node.version !== expectedVersion) throw new VersionConflictError('Node', nodeId, node.version, expectedVersion);
    const data = Object.fromEntries(Object.entries(patch).filter(([, value]) => value != null));
    const fields = Object.keys(data);
    if (fields.length === 0) return node;
    const updated = await tx.node.update({ where: { id: nodeId }, data: { ...data, version: { increment: 1 } } });
    emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields } });
    return updated;
  });
}
