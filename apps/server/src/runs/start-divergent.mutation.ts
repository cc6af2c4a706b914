import { ConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { AgentRunRef } from './run.type.ts';
import { startDivergent } from './start-runs.ts';

const StartDivergentInput = builder.inputType('StartDivergentInput', {
  fields: (t) => ({
    nodeId: t.id({ required: true, description: 'The node whose question the session explores.' }),
    maxLevels: t.int({ description: 'Levels of tasks at most, 1–5 (default 5).' }),
    maxParallel: t.int({ description: 'Tasks run in parallel per level, 1–8 (default 8).' }),
    threshold: t.float({ description: 'The completion score (0–1) that ends the loop (default 0.9).' }),
    reviewEachLevel: t.boolean({ description: 'Each level’s task list waits for your approval (default false).' }),
  }),
});

builder.mutationField('startDivergent', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Starts divergent exploration on a node: a summary, up to 8 parallel skill tasks per level, a converging ' +
      'summary scored for completion, until the threshold or the last level, then a final document. The run’s id ' +
      'is the session’s id (see divergentSession). Refused with ConflictError while the node has a run.',
    errors: { types: [...ACCESS_ERRORS, ConflictError] },
    args: { input: t.arg({ type: StartDivergentInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      startDivergent(ctx.runs, ctx.commands, { ...input, nodeId: String(input.nodeId) }),
  }),
);
