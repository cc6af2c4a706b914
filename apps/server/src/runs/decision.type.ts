import { DecidedBy, DecisionKind } from '@thinkingmap/db';
import { readiness } from '@thinkingmap/map-graph';
import { builder } from '../schema/builder.ts';

export const DecisionKindEnum = builder.enumType(DecisionKind, {
  name: 'DecisionKind',
  description: 'What a decision of a run was about.',
});
export const DecidedByEnum = builder.enumType(DecidedBy, {
  name: 'DecidedBy',
  description: 'Who decided: the model, the person (choosing or overriding), or the system’s own rules.',
});

export const DecisionRef = builder.prismaObject('Decision', {
  description:
    'One decision of a run about a node, with why: the intent (with the model’s confidence), the strategy (with ' +
    'the factors weighed), the sub-questions, their dependencies, the conclusion kind, or that a run started by ' +
    'itself.',
  fields: (t) => ({
    id: t.exposeID('id'),
    runId: t.exposeID('runId'),
    mapId: t.exposeID('mapId'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    kind: t.expose('kind', { type: DecisionKindEnum }),
    choice: t.expose('choice', {
      type: 'JSON',
      description:
        'What was chosen: `{ intent }`, `{ strategy, factors: [{ factor, assessment }] }`, ' +
        '`{ subQuestions: [{ key, question, goal }] }`, `{ dependencies: [{ question, dependsOn }] }`, `{ kind }`, ' +
        'or `{ trigger }` for a run that started by itself.',
    }),
    reason: t.exposeString('reason', { description: 'Why, in words the person reads.' }),
    confidence: t.exposeFloat('confidence', { nullable: true, description: 'How sure the model was, 0 to 1.' }),
    decidedBy: t.expose('decidedBy', { type: DecidedByEnum }),
    overridden: t.expose('overridden', {
      type: 'JSON',
      nullable: true,
      description: 'What the model had proposed when the person (or a rule) chose otherwise; same shape as `choice`.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    run: t.relation('run'),
    node: t.relation('node', { nullable: true }),
  }),
});

builder.prismaObjectField('AgentRun', 'decisions', (t) =>
  t.relation('decisions', {
    description: 'What the run decided, oldest first, each with why and who decided.',
    args: { kind: t.arg({ type: DecisionKindEnum }) },
    query: (args) => ({ where: args.kind ? { kind: args.kind } : {}, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
);

builder.prismaObjectField('Node', 'decisions', (t) =>
  t.relation('decisions', {
    description:
      'Every decision runs made about this node, oldest first, each with why and who decided. `decisions(kind: ' +
      'INTENT)` is the history of its intent (an EXPLORE, then a CONCLUDE, …); `intent` is the latest.',
    args: { kind: t.arg({ type: DecisionKindEnum }) },
    query: (args) => ({ where: args.kind ? { kind: args.kind } : {}, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
);

builder.prismaObjectField('AgentRun', 'waitingFor', (t) =>
  t.prismaField({
    type: ['Node'],
    description:
      'While the run is WAITING_FOR_DEPENDENCIES: the open dependencies of its node it waits for (it starts by ' +
      'itself when the last one concludes). Empty otherwise.',
    select: { status: true, nodeId: true },
    resolve: async (query, run, _args, ctx) => {
      if (run.status !== 'WAITING_FOR_DEPENDENCIES' || !run.nodeId) return [];
      const dependencies = await ctx.db.read.dependency.findMany({
        where: { nodeId: run.nodeId },
        select: { dependsOn: { select: { id: true, question: true, status: true } } },
      });
      const open = readiness(dependencies.map((d) => d.dependsOn)).openDependencies.map((d) => d.id);
      if (open.length === 0) return [];
      return ctx.db.read.node.findMany({ ...query, where: { id: { in: open } }, orderBy: { position: 'asc' } });
    },
  }),
);
