import {
  FORKABLE_STEPS,
  forkChangeProblem,
  forkUpdate,
  isForkableStep,
  ReviewDecompositionReplySchema,
  type SubQuestionProposal,
  SubQuestionProposalSchema,
} from '@thinkingmap/agent-core';
import {
  AgentGraph,
  type AgentRun,
  DecompositionStrategy,
  isJsonObject,
  NodeIntent,
  QuestionKind,
} from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import { assertCanChange } from '../commands/mutate-map.ts';
import { createRun } from './create-run.ts';
import { checkReplyLimits } from './reply-limits.ts';
import type { RunEngine } from './run-engine.ts';
import { runPath } from './run-path.ts';

const forkRunInput = z.object({
  runId: id,
  step: z.string().min(1).max(64),
  round: z.number().int().min(1).max(1000).nullish(),
  intent: z.enum(NodeIntent).nullish(),
  strategy: z.enum(DecompositionStrategy).nullish(),
  subQuestions: z.array(z.unknown()).nullish(),
  feedback: z.string().trim().min(1).max(4000).nullish(),
});
/** A fork reads only which checkpoint each step started from, not what context an agent step held. */
const NO_AGENT_STEPS: ReadonlySet<string> = new Set();

/** The original run's last reviewed proposal with the person's edited sub-questions (checked like a review's). */
async function editedProposal(
  ctx: CommandContext,
  from: AgentRun,
  subQuestions: unknown[],
): Promise<SubQuestionProposal> {
  const edited = ReviewDecompositionReplySchema.safeParse({ action: 'approve', subQuestions });
  if (!edited.success || edited.data.action !== 'approve' || !edited.data.subQuestions)
    throw new ValidationError('subQuestions', 'give 1 to 12 sub-questions, each with a key, a question and a goal');
  checkReplyLimits(QuestionKind.REVIEW_DECOMPOSITION, edited.data);
  const review = await ctx.db.read.agentQuestion.findFirst({
    where: { runId: from.id, kind: QuestionKind.REVIEW_DECOMPOSITION },
    orderBy: { createdAt: 'desc' },
    select: { context: true },
  });
  const context = review?.context;
  const stored = isJsonObject(context) ? context.proposal : undefined;
  const reviewed = SubQuestionProposalSchema.safeParse(stored).data;
  if (!reviewed) throw new NotFoundError('RunStep', `${from.id}/reviewProposal`);
  return { ...reviewed, subQuestions: edited.data.subQuestions };
}

/**
 * Forks a node run from one of its steps (`FORKABLE_STEPS`): a new run on the same node, linked to the
 * original, starts from a copy of the checkpoint that step started from (its `round`, the last one unless
 * named: a loop's earlier round starts from that round's state) with the person's change (another intent or
 * strategy, edited sub-questions, feedback) and goes on to the person's gate. The original's results stay:
 * a fork's decomposition replaces them only when the person approves its proposal (see `replyToQuestion`).
 */
export async function forkRun(engine: RunEngine, ctx: CommandContext, raw: unknown): Promise<AgentRun> {
  const parsed = parseInput(forkRunInput, raw);
  const from = await ctx.db.read.agentRun.findUnique({ where: { id: parsed.runId } });
  if (!from) throw new NotFoundError('AgentRun', parsed.runId);
  // Access first: which steps a run took is none of a stranger's business.
  assertCanChange(ctx, 'AgentRun', from.id);
  const map = await ctx.db.mapVersion(from.mapId);
  if (map?.ownerId !== ctx.viewer.id) throw new ForbiddenError('AgentRun', from.id);
  if (from.agent !== AgentGraph.PROCESS_NODE || !from.nodeId)
    throw new ValidationError('runId', 'only a run on a node (intent, decomposition, conclusion) can be forked');
  if (!isForkableStep(parsed.step))
    throw new ValidationError('step', `a run can be forked from ${FORKABLE_STEPS.join(', ')}`);
  const step = parsed.step;
  // The visit forked from (its last round unless one is named) and the checkpoint it started from.
  const path = await runPath(ctx.db.read, from, NO_AGENT_STEPS);
  const visits = path.steps.filter((s) => s.step === step);
  const visit = parsed.round ? visits.find((s) => s.round === parsed.round) : visits.at(-1);
  if (!visit) throw new NotFoundError('RunStep', `${from.id}/${step}${parsed.round ? `#${parsed.round}` : ''}`);
  const proposal = parsed.subQuestions ? await editedProposal(ctx, from, parsed.subQuestions) : null;
  const change = { intent: parsed.intent, strategy: parsed.strategy, feedback: parsed.feedback, proposal };
  const problem = forkChangeProblem(step, change);
  if (problem) throw new ValidationError(problem.field, problem.message);
  const input = {
    ...(isJsonObject(from.input) ? from.input : {}),
    ...(parsed.intent ? { intentOverride: parsed.intent } : {}),
    ...(parsed.strategy ? { strategyOverride: parsed.strategy } : {}),
    proposalOverride: null,
  };
  const fork = { from, step, checkpointId: visit.checkpointId };
  const { run } = await createRun(engine, ctx, from.mapId, AgentGraph.PROCESS_NODE, from.nodeId, input, { fork });
  if (run.status === 'RUNNING') void engine.fork(run, forkUpdate(step, change));
  return run;
}
