import type { Node } from '@thinkingmap/db';
import { z } from 'zod';
import { toWire } from '../events/map-event.ts';
import type { CommandContext } from './context.ts';
import { id, parseInput } from './input.ts';
import { mapIdOfNode, mutateMap } from './mutate-map.ts';
import { loadNodeInMap } from './node-commands.ts';

export const nodeStateInput = z.object({
  nodeId: id,
  status: z.enum(['PENDING', 'READY', 'BLOCKED', 'RUNNING', 'WAITING', 'COMPLETED', 'FAILED']).nullish(),
  reason: z.string().max(2_000).nullish(),
  intent: z.enum(['DECOMPOSE', 'CONCLUDE', 'EXPLORE', 'CLARIFY']).nullish(),
  strategy: z.enum(['SEQUENTIAL', 'PARALLEL', 'HIERARCHICAL', 'EXPLORATORY']).nullish(),
});

/**
 * Records where an agent is with a node: its status (with the reason for BLOCKED and FAILED), the intent and
 * the strategy chosen. Not a content change, so the node's version stays: a person's open edit stays valid.
 */
export async function setNodeState(ctx: CommandContext, raw: unknown): Promise<Node> {
  const input = parseInput(nodeStateInput, raw);
  const mapId = await mapIdOfNode(ctx, input.nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, input.nodeId, mapId, 'nodeId');
    const data: Partial<Pick<Node, 'status' | 'statusReason' | 'intent' | 'strategy'>> = {};
    if (input.status && input.status !== node.status) {
      data.status = input.status;
      data.statusReason = input.status === 'BLOCKED' || input.status === 'FAILED' ? (input.reason ?? null) : null;
    }
    if (input.intent && input.intent !== node.intent) data.intent = input.intent;
    if (input.strategy && input.strategy !== node.strategy) data.strategy = input.strategy;
    const fields = Object.keys(data).filter((f) => f !== 'statusReason');
    if (fields.length === 0) return node;
    const updated = await tx.node.update({ where: { id: node.id }, data });
    emit({ type: 'NodeUpdated', payload: { node: toWire(updated), fields } });
    return updated;
  });
}
