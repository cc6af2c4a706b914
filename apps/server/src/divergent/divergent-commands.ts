import type { Node } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ValidationError } from '../commands/domain-errors.ts';
import { toNodeSnapshot } from '../commands/event-snapshots.ts';
import { id, parseInput } from '../commands/input.ts';
import { mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { loadNodeInMap } from '../maps/node-commands.ts';

const completionScoreInput = z.object({ nodeId: id, score: z.number().min(0).max(1) });

/** Stores a divergent summary's completion score on its node (NodeUpdated with `completionScore`). */
export async function recordCompletionScore(ctx: CommandContext, raw: unknown): Promise<Node> {
  const { nodeId, score } = parseInput(completionScoreInput, raw);
  const mapId = await mapIdOfNode(ctx, nodeId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, nodeId, mapId);
    if (node.divergentRole !== 'SUMMARY')
      throw new ValidationError('nodeId', 'only a divergent summary has a completion score');
    const updated = await tx.node.update({
      where: { id: nodeId },
      data: { completionScore: score, version: { increment: 1 } },
    });
    emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(updated), fields: ['completionScore'] } });
    return updated;
  });
}
