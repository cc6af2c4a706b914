import type { ModelCapabilities } from '@thinkingmap/agent-core';
import { AgentGraph, QuestionKind } from '@thinkingmap/db';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import type { ModelInfo } from '../schema/context.ts';
import { QuestionStatusEnum, RunStatusEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { ANSWERABLE_QUESTION, isAnswerable } from './answerable-questions.ts';

/** Lists an enum's values for a description: "`a`, `b` or `c`". */
function oneOf(values: Record<string, string>): string {
  const quoted = Object.values(values).map((value) => `\`${value}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

export const AgentRunRef = builder.prismaObject('AgentRun', {
  description: 'One execution of an agent graph on a map or a node.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    agent: t.exposeString('agent', { description: `The agent graph: ${oneOf(AgentGraph)}.` }),
    status: t.expose('status', { type: RunStatusEnum }),
    error: t.exposeString('error', { nullable: true }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    raw: t.exposeString('raw', {
      nullable: true,
      description: 'Model output that could not be parsed, kept as written.',
    }),
    promptTokens: t.exposeInt('promptTokens'),
    completionTokens: t.exposeInt('completionTokens'),
    tokensEstimated: t.exposeBoolean('tokensEstimated', {
      description:
        'True when some of its tokens were counted locally with a tokenizer: the endpoint streamed without ' +
        'reporting usage (it refuses `stream_options`). The dashboard marks such counts with ≈.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    questions: t.relation('questions', { query: { orderBy: { createdAt: 'asc' } } }),
    forkedFromRunId: t.exposeID('forkedFromRunId', {
      nullable: true,
      description: 'The run this one was forked from (see forkRun).',
    }),
    forkedFromStep: t.exposeString('forkedFromStep', { nullable: true, description: 'The step it was forked from.' }),
    forks: t.relation('forks', {
      description: 'The runs forked from this one, oldest first.',
      query: { orderBy: { createdAt: 'asc' } },
    }),
  }),
});

export const AgentQuestionRef = builder.prismaObject('AgentQuestion', {
  name: 'PendingQuestion',
  description: 'A question a paused run waits on; answer it with replyToAgent(requestId).',
  fields: (t) => ({
    requestId: t.exposeID('id'),
    runId: t.exposeID('runId'),
    mapId: t.exposeID('mapId'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    kind: t.exposeString('kind', { description: `What the run waits for: ${oneOf(QuestionKind)}.` }),
    question: t.exposeString('question'),
    context: t.expose('context', {
      type: 'JSON',
      description: 'Why the agent asks and what it proposes (sub-questions, a draft).',
    }),
    status: t.expose('status', { type: QuestionStatusEnum }),
    answerable: t.boolean({
      description:
        'Whether the person can still answer it: waiting, or a review or confirmation that EXPIRED while its run ' +
        'is PAUSED (a gate never passes by expiry; answering resumes the run).',
      select: { status: true, kind: true, run: { select: { status: true } } },
      resolve: (question) => isAnswerable(question, question.run.status),
    }),
    reply: t.expose('reply', { type: 'JSON', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.queryField('runs', (t) =>
  t.prismaField({
    type: ['AgentRun'],
    description: "A map's agent runs, newest first, with status and token usage.",
    errors: { types: ACCESS_ERRORS, directResult: false },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await assertMapAccess(ctx, String(args.mapId));
      return ctx.db.read.agentRun.findMany({
        ...query,
        where: { mapId: String(args.mapId) },
        orderBy: { createdAt: 'desc' },
      });
    },
  }),
);

builder.queryField('pendingQuestions', (t) =>
  t.prismaField({
    type: ['AgentQuestion'],
    description:
      'Questions waiting for the person on a map (several may wait at once, on different nodes), expired reviews ' +
      'and confirmations of paused runs included (status EXPIRED, still answerable).',
    errors: { types: ACCESS_ERRORS, directResult: false },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await assertMapAccess(ctx, String(args.mapId));
      return ctx.db.read.agentQuestion.findMany({
        ...query,
        where: { mapId: String(args.mapId), ...ANSWERABLE_QUESTION },
        orderBy: { createdAt: 'asc' },
      });
    },
  }),
);

const CapabilitiesRef = builder.objectRef<ModelCapabilities>('ModelCapabilities').implement({
  description:
    'What the model endpoint was found to accept so far in this process (or was configured to use): each ' +
    'starts at the strongest and falls back when the endpoint refuses it with an error naming it.',
  fields: (t) => ({
    structuredOutput: t.exposeString('structuredOutput', {
      description:
        'How structured answers are asked for: `json_schema`, `json_object` (the schema in the prompt) or ' +
        '`prompt` (no response_format; the schema in the prompt). Every answer is validated and repaired once.',
    }),
    streamUsage: t.exposeString('streamUsage', {
      description: '`reported` by the endpoint at the end of a stream, or `estimated` locally with a tokenizer.',
    }),
    toolChoice: t.exposeString('toolChoice', {
      description: '`named` when tool_choice may name a function, `auto` when only auto is accepted.',
    }),
  }),
});

const ModelInfoRef = builder.objectRef<ModelInfo>('ModelInfo').implement({
  description: 'Which model the agents use. Offline means deterministic built-in answers (no key configured).',
  fields: (t) => ({
    offline: t.exposeBoolean('offline'),
    label: t.exposeString('label'),
    capabilities: t.field({
      type: CapabilitiesRef,
      nullable: true,
      description: 'What its endpoint accepts (null for the offline model).',
      resolve: (model) => model.capabilities() ?? null,
    }),
  }),
});

builder.queryField('agentModel', (t) => t.field({ type: ModelInfoRef, resolve: (_root, _args, ctx) => ctx.model }));
