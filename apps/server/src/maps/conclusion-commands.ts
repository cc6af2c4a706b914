import { ConclusionKind, type Map as MapRow, type Node, type RunLog, type Tx } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { VersionConflictError } from '../commands/domain-errors.ts';
import { toMapSnapshot, toNodeSnapshot } from '../commands/event-snapshots.ts';
import { id, LIMITS, parseInput, text, version } from '../commands/input.ts';
import { type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { loadNodeInMap } from './node-commands.ts';
import { refreshBlocked } from './node-status.ts';
import { FRESH, markStale, staleAfterConclusion } from './stale-conclusions.ts';

export const setConclusionInput = z.object({
  nodeId: id,
  conclusion: text(LIMITS.content),
  kind: z.enum(ConclusionKind).nullish(),
  expectedVersion: version.nullish(),
});

/**
 * Concludes a node: stores the conclusion (current again if it was out of date), completes the node,
 * releases the nodes that waited for it, marks the conclusions drawn from it out of date when it changed
 * (its parent's and its dependents', see `markStale`), and completes the map when the root concludes.
 */
export async function setConclusion(ctx: CommandContext, raw: unknown): Promise<Node> {
  const input = parseInput(setConclusionInput, raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, (tx, emit, map) => concludeIn(ctx.db.runLog, tx, emit, map, input));
}

/** A checked conclusion (see {@link setConclusion}). */
export type SetConclusionInput = z.infer<typeof setConclusionInput>;

/** Concludes a node inside a command's transaction on its map (see {@link setConclusion}). */
export async function concludeIn(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  map: MapRow,
  input: SetConclusionInput,
): Promise<Node> {
  const mapId = map.id;
  const node = await loadNodeInMap(tx, input.nodeId, mapId, log);
  if (input.expectedVersion != null && node.version !== input.expectedVersion) {
    throw new VersionConflictError('Node', node.id, node.version, input.expectedVersion);
  }
  const kind = input.kind ?? node.conclusionKind;
  const changed = node.conclusion !== input.conclusion || node.conclusionKind !== kind;
  const concluded = await tx.node.update({
    where: { id: node.id },
    data: {
      conclusion: input.conclusion,
      conclusionKind: kind,
      status: 'COMPLETED',
      concludedAt: new Date(),
      version: { increment: 1 },
      ...FRESH,
    },
  });
  emit({ type: 'NodeConcluded', payload: { node: toNodeSnapshot(concluded) } });
  const dependents = await log.dependentsOf(tx, node.id);
  await refreshBlocked(tx, dependents, emit);
  if (changed) await markStale(tx, emit, staleAfterConclusion(node, dependents));
  if (node.parentId === null && map.status !== 'COMPLETED') {
    const completed = await tx.map.update({
      where: { id: mapId },
      data: { status: 'COMPLETED', version: { increment: 1 } },
    });
    emit({ type: 'MapUpdated', payload: { map: toMapSnapshot(completed), fields: ['status'] } });
  }
  return concluded;
}
