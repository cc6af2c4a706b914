import { ConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { DecompositionStrategyEnum, NodeIntentEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { forkRun } from './fork-run.ts';
import { SubQuestionInput } from './review-decomposition.mutation.ts';
import { AgentRunRef } from './run.type.ts';

const ForkRunInput = builder.inputType('ForkRunInput', {
  fields: (t) => ({
    runId: t.id({ required: true, description: 'The run to fork: a node run that ended (or paused on a gate).' }),
    step: t.string({
      required: true,
      description:
        'The step to re-run from: `recognizeIntent` (with another `intent` or `strategy`), `decideStrategy` (another ' +
        '`strategy`), `proposeSubQuestions` (with `feedback`), `reviewProposal` (edited `subQuestions`) or ' +
        '`draftConclusion` (with `feedback`).',
    }),
    round: t.int({
      description:
        'Which visit of the step (its `round` in the run path: a loop visits a step again); the last one when absent.',
    }),
    intent: t.field({ type: NodeIntentEnum }),
    strategy: t.field({ type: DecompositionStrategyEnum }),
    subQuestions: t.field({ type: [SubQuestionInput], description: 'The reviewed proposal, edited.' }),
    feedback: t.string({ description: 'What the re-run step should do differently.' }),
  }),
});

builder.mutationField('forkRun', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Re-runs a node run from one of its steps with changed input: a new run on the same node (`forkedFrom`), ' +
      'starting from a copy of the checkpoint the original’s step started from (its state just before that step, in ' +
      'the round named). It ends at the person’s gate like any run; the ' +
      'original’s results stay until the person approves the fork’s proposal or accepts its conclusion. Refused ' +
      'with ConflictError while the original (or another run on the node) is in progress, with ValidationError when ' +
      'its checkpoints are no longer kept or the change does not fit the step, NotFoundError for a step it never took.',
    errors: { types: [...ACCESS_ERRORS, ConflictError] },
    args: { input: t.arg({ type: ForkRunInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      forkRun(ctx.runs, ctx.commands, {
        runId: String(input.runId),
        step: input.step,
        round: input.round,
        intent: input.intent,
        strategy: input.strategy,
        feedback: input.feedback,
        subQuestions: input.subQuestions?.map((s) => ({
          key: s.key,
          question: s.question,
          goal: s.goal,
          dependsOn: s.dependsOn ?? [],
        })),
      }),
  }),
);
