import type { Node } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { constraints, id, LIMITS, optionalText, parseInput, text } from '../commands/input.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { MAX_BATCH_NODES, writeNodeBatch } from './node-batch.ts';

/** A client's key for a node of a batch. */
export const batchKey = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const createNodesInput = z.object({
  mapId: id,
  nodes: z
    .array(
      z.object({
        key: batchKey,
        parentKey: batchKey.nullish(),
        parentId: id.nullish(),
        question: text(LIMITS.question),
        goal: optionalText(LIMITS.goal).default(''),
        constraints: constraints.default([]),
      }),
    )
    .min(1, 'must have at least one node')
    .max(MAX_BATCH_NODES, `must have at most ${MAX_BATCH_NODES} nodes`),
});

/** A node a batch created, with the key the client gave it. */
export interface CreatedNode {
  key: string;
  node: Node;
}

/**
 * Creates many nodes in one transaction and one change of the map's history: each refers to its parent by the
 * client's key of another node of the batch (`parentKey`) or by the id of a node of the map (`parentId`); neither
 * makes it the root (a map has one). Answers the nodes in the order given, each with its key. Any invalid node
 * refuses the whole batch, naming it (`nodes[3].parentKey`), and nothing is written.
 */
export async function createNodes(ctx: CommandContext, raw: unknown): Promise<CreatedNode[]> {
  const input = parseInput(createNodesInput, raw);
  return mutateMap(ctx, input.mapId, async (tx, emit) => {
    const batch = input.nodes.map((node, i) => ({
      key: node.key,
      parentKey: node.parentKey ?? null,
      parentId: node.parentId ?? null,
      question: node.question,
      goal: node.goal,
      constraints: node.constraints,
      where: `nodes[${i}]`,
    }));
    const written = await writeNodeBatch(ctx.db.rows, tx, emit, input.mapId, batch, { oneRoot: true });
    return input.nodes.map(({ key }) => ({ key, node: written.nodes.get(key)! }));
  });
}
