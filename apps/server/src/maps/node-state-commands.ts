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

/** One change of where an agent is with a node: its status (with a reason), its intent or its strategy. */
export const nodeStateInput = z.union([
  z.strictObject({ nodeId: id, status: z.enum(NodeStatus), reason: z.string().max(2_000).nullish() }),
  z.strictObject({ nodeId: id, intent: z.enum(NodeIntent) }),
  z.strictObject({ nodeId: id, strategy: z.enum(DecompositionStrategy) }),
]);

/** A checked change of where an agent is with a node. */
export type NodeState = z.infer<typeof nodeStateInput>;

/** Checks a change of a node's agent state; throws ValidationError on bad input. */
export function parseNodeState(raw: unknown): NodeState {
  return parseInput(nodeStateInput, raw);
}

/**
 * Records where an agent is with a node — its status (with the reason for BLOCKED and FAILED), the intent or
 * the strategy chosen — inside a command's transaction on the node's map (an agent's, with the rest of its
 * progress: see `RunOutbox`), in one statement that changes the node only when it differs. Emits NodeUpdated when
 * something changed. Not a content change, so the node's version stays and a person's open edit stays valid. A node
 * no longer in the map (deleted meanwhile) is skipped: this never fails the write it is part of.
 */
export async function recordNodeState(log: RunLog, tx: Tx, emit: Emit, mapId: string, input: NodeState): Promise<void> {
  const [field, change]: [string, NodeStateChange] =
    'status' in input
      ? [
          'status',
          {
            status: input.status,
            statusReason: input.status === 'BLOCKED' || input.status === 'FAILED' ? (input.reason ?? null) : null,
          },
        ]
      : 'intent' in input
        ? ['intent', { intent: input.intent }]
        : ['strategy', { strategy: input.strategy }];
  const updated = await log.changeNodeState(tx, input.nodeId, mapId, change);
  if (updated) emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields: [field] } });
}
