import { ConflictError } from '../commands/domain-errors.ts';
import { DivergentSessionRef, DivergentSkillEnum, loadDivergentSession } from '../divergent/divergent-session.type.ts';
import { builder } from '../schema/builder.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { steerDivergentRun } from './reply-to-question.ts';

const STEERING_ERRORS = [...ACCESS_ERRORS, ConflictError];

/** Stores the steering and returns the session as it stands after it. */
async function steer(ctx: GraphQLContext, input: Record<string, unknown>) {
  const run = await steerDivergentRun(ctx.runs, ctx.commands, input);
  return loadDivergentSession(ctx, run.id);
}

const SESSION = 'The session (the id startDivergent returned).';

const StopDivergentInput = builder.inputType('StopDivergentInput', {
  fields: (t) => ({ sessionId: t.id({ required: true, description: SESSION }) }),
});
const SkipDivergentTaskInput = builder.inputType('SkipDivergentTaskInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true, description: SESSION }),
    taskKey: t.string({ required: true, description: 'The task’s key (`L1.T2`), planned or running.' }),
  }),
});
const AddDivergentTaskInput = builder.inputType('AddDivergentTaskInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true, description: SESSION }),
    name: t.string({ required: true, description: '1–120 characters.' }),
    query: t.string({ required: true, description: 'What the task finds out, 1–2000 characters.' }),
    skill: t.field({ type: DivergentSkillEnum, required: true, description: 'An available skill.' }),
    priority: t.int({ description: '1–5 (default 5).' }),
  }),
});
const SetDivergentThresholdInput = builder.inputType('SetDivergentThresholdInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true, description: SESSION }),
    threshold: t.float({ required: true, description: 'The completion score (0–1) that ends the loop.' }),
  }),
});
const AddDivergentFeedbackInput = builder.inputType('AddDivergentFeedbackInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true, description: SESSION }),
    text: t.string({ required: true, description: '1–4000 characters.' }),
  }),
});

const COMMON =
  ' Records a `DivergentSteered` event. A session that ended refuses with ConflictError and nothing changes.';

builder.mutationField('stopDivergent', (t) =>
  t.field({
    type: DivergentSessionRef,
    description:
      'Stops a divergent session gracefully: running tasks end as SKIPPED, finished ones are kept, and a final ' +
      'output is written from what exists (a waiting review is answered with stop). `cancelRun` aborts instead.' +
      COMMON,
    errors: { types: STEERING_ERRORS },
    args: { input: t.arg({ type: StopDivergentInput, required: true }) },
    resolve: (_root, { input }, ctx) => steer(ctx, { action: 'STOP', sessionId: String(input.sessionId) }),
  }),
);

builder.mutationField('skipDivergentTask', (t) =>
  t.field({
    type: DivergentSessionRef,
    description:
      'Skips a planned or running task: it is aborted and marked SKIPPED; the level goes on. A task that ended ' +
      'is refused with ConflictError, an unknown key with NotFoundError.' +
      COMMON,
    errors: { types: STEERING_ERRORS },
    args: { input: t.arg({ type: SkipDivergentTaskInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      steer(ctx, { action: 'SKIP_TASK', sessionId: String(input.sessionId), taskKey: input.taskKey }),
  }),
);

builder.mutationField('addDivergentTask', (t) =>
  t.field({
    type: DivergentSessionRef,
    description:
      'Adds a task: it runs in the level being planned or reviewed, else in the next one, before the planner’s ' +
      'own (one more level runs for it even when the score reached the threshold, within `maxLevels`).' +
      COMMON,
    errors: { types: STEERING_ERRORS },
    args: { input: t.arg({ type: AddDivergentTaskInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      steer(ctx, {
        action: 'ADD_TASK',
        sessionId: String(input.sessionId),
        name: input.name,
        query: input.query,
        skill: input.skill,
        priority: input.priority,
      }),
  }),
);

builder.mutationField('setDivergentThreshold', (t) =>
  t.field({
    type: DivergentSessionRef,
    description: 'Changes the completion threshold; the next score is compared with it.' + COMMON,
    errors: { types: STEERING_ERRORS },
    args: { input: t.arg({ type: SetDivergentThresholdInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      steer(ctx, { action: 'SET_THRESHOLD', sessionId: String(input.sessionId), threshold: input.threshold }),
  }),
);

builder.mutationField('addDivergentFeedback', (t) =>
  t.field({
    type: DivergentSessionRef,
    description: 'Adds feedback the next summary must take into account.' + COMMON,
    errors: { types: STEERING_ERRORS },
    args: { input: t.arg({ type: AddDivergentFeedbackInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      steer(ctx, { action: 'ADD_FEEDBACK', sessionId: String(input.sessionId), text: input.text }),
  }),
);
