import {
  DecompositionStrategy,
  NodeIntent,
  type NodeStateChange,
  NodeStatus,
  type RunLog,
  type Tx,
} from '@thinkingmap/db';
import { z } from 'zod';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import { id, parseInput } from '../commands/input.ts';
import type { Emit } from '../commands/mutate-map.ts';

export const nodeStateInput = z.object({
  nodeId: id,
  status: z.enum(NodeStatus).nullish(),
  reason: z.string().max(2_000).nullish(),
  intent: z.enum(NodeIntent).nullish(),
  strategy: z.enum(DecompositionStrategy).nullish(),
});

/** A checked change of where an agent is with a node. */
export type NodeState = z.infer<typeof nodeStateInput>;

/** Checks a change of a node's agent state; throws ValidationError on bad input. */
export function parseNodeState(raw: unknown): NodeState {
  return parseInput(nodeStateInput, raw);
}

/**
 * Records where an agent is with a node — its status (with the reason for BLOCKED and FAILED), the intent and
 * the strategy chosen — inside a command's transaction on the node's map (an agent's, with the rest of its
 * progress: see `RunOutbox`). Emits NodeUpdated when something changed. Not a content change, so the node's
 * version stays and a person's open edit stays valid. A node no longer in the map (deleted meanwhile) is
 * skipped: this never fails the write it is part of.
 */
export async function recordNodeState(log: RunLog, tx: Tx, emit: Emit, mapId: string, input: NodeState): Promise<void> {
  const node = await log.nodeState(tx, input.nodeId);
  if (!node || node.mapId !== mapId) return;
  const data: NodeStateChange = {};
  if (input.status && input.status !== node.status) {
    data.status = input.status;
    data.statusReason = input.status === 'BLOCKED' || input.status === 'FAILED' ? (input.reason ?? null) : null;
  }
  if (input.intent && input.intent !== node.intent) data.intent = input.intent;
  if (input.strategy && input.strategy !== node.strategy) data.strategy = input.strategy;
  const fields = Object.keys(data).filter((f) => f !== 'statusReason');
  if (fields.length === 0) return;
  const updated = await log.setNodeState(tx, input.nodeId, data);
  if (updated) emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields } });
}
