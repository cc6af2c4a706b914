import type { Dependency, Node } from '@thinkingmap/db';
import { readiness, topologicalOrder, treeOrder } from '@thinkingmap/map-graph';
import { propertyOf } from '../commands/input.ts';
import { assertMapAccess, assertRowAccess, parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import {
  ConclusionKindEnum,
  DecompositionStrategyEnum,
  DivergentRoleEnum,
  NodeIntentEnum,
  NodeStatusEnum,
  NodeTypeEnum,
  StaleReasonEnum,
} from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { DependencyRef } from './dependency.type.ts';
import { inOrder } from './in-order.ts';
import { ReadinessRef, type ReadinessShape } from './readiness.type.ts';
import { strings } from './records.ts';

export const NodeRef = builder.prismaObject('Node', {
  description: 'A question in a thinking map.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    parentId: t.exposeID('parentId', { nullable: true }),
    position: t.exposeInt('position', { description: 'Order among siblings.' }),
    question: t.exposeString('question'),
    goal: t.exposeString('goal'),
    constraints: t.stringList({ resolve: (node) => strings(node.constraints) }),
    type: t.expose('type', { type: NodeTypeEnum }),
    status: t.expose('status', { type: NodeStatusEnum }),
    intent: t.expose('intent', { type: NodeIntentEnum, nullable: true }),
    strategy: t.expose('strategy', { type: DecompositionStrategyEnum, nullable: true }),
    conclusion: t.exposeString('conclusion', { nullable: true }),
    conclusionKind: t.expose('conclusionKind', { type: ConclusionKindEnum, nullable: true }),
    divergentRole: t.expose('divergentRole', { type: DivergentRoleEnum, nullable: true }),
    divergentLevel: t.exposeInt('divergentLevel', { nullable: true }),
    completionScore: t.exposeFloat('completionScore', { nullable: true }),
    version: t.exposeInt('version', {
      description: 'Bumped by every change to question, goal, constraints, conclusion or place; pass it back to edit.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    concludedAt: t.expose('concludedAt', { type: 'DateTime', nullable: true }),
    staleReason: t.expose('staleReason', {
      type: StaleReasonEnum,
      nullable: true,
      description:
        'Set while the conclusion is out of date (a child added or removed, a child’s or a dependency’s conclusion changed, a child’s conclusion out of date); cleared when the node is concluded again. A stale conclusion counts as open.',
    }),
    staleSourceId: t.exposeID('staleSourceId', {
      nullable: true,
      description: 'The node whose change made the conclusion out of date (it may since have been deleted).',
    }),
    staleSourceQuestion: t.exposeString('staleSourceQuestion', {
      nullable: true,
      description: 'That node’s question when it happened.',
    }),
    staleSince: t.expose('staleSince', { type: 'DateTime', nullable: true }),
    map: t.relation('map'),
    parent: t.relation('parent', { nullable: true }),
    children: t.relation('children', { query: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } }),
    // Plain fields with batch loaders rather than prisma relations: a 1,000-node list pays no per-row
    // selection bookkeeping, and rows that arrive with their dependencies (the map's node list) use them.
    dependencies: t.field({
      type: [DependencyRef],
      description: 'What this node waits for.',
      resolve: (node, _args, ctx) => preloaded(node) ?? ctx.loaders.dependenciesOf.load(node.id),
    }),
    dependents: t.field({
      type: [DependencyRef],
      description: 'What waits for this node.',
      resolve: (node, _args, ctx) => ctx.loaders.dependentsOf.load(node.id),
    }),
    contextItems: t.relation('contextItems', { query: { orderBy: { createdAt: 'asc' } } }),
    conversations: t.relation('conversations', { query: { orderBy: { kind: 'desc' } } }),
    readiness: t.field({
      type: ReadinessRef,
      resolve: async (node, _args, ctx) => {
        const dependencies = preloaded(node) ?? (await ctx.loaders.dependenciesOf.load(node.id));
        const targets = await ctx.loaders.nodeById.loadMany(dependencies.map((d) => d.dependsOnId));
        return toReadiness(targets.filter((n): n is Node => !!n && !(n instanceof Error)));
      },
    }),
  }),
});

/** The dependencies a node row was loaded with, if any. */
function preloaded(node: object): Dependency[] | undefined {
  const rows = propertyOf(node, 'dependencies');
  return Array.isArray(rows) && rows.every(isDependency) ? rows : undefined;
}

const isDependency = (row: unknown): row is Dependency => typeof propertyOf(row, 'dependsOnId') === 'string';

function toReadiness(dependencies: Parameters<typeof readiness>[0]): ReadinessShape {
  const result = readiness(dependencies);
  return {
    ready: result.ready,
    reason: result.ready ? null : result.reason,
    openDependencyIds: result.openDependencies.map((n) => n.id),
  };
}

builder.queryField('node', (t) =>
  t.prismaField({
    type: 'Node',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = parseId('id', args.id);
      return assertRowAccess(ctx, await ctx.db.read.node.findUnique({ ...query, where: { id } }), 'Node', id);
    },
  }),
);

builder.queryField('readiness', (t) =>
  t.field({
    type: ReadinessRef,
    description: 'Whether a node may proceed, or which open dependencies block it.',
    errors: { types: ACCESS_ERRORS },
    args: { nodeId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId('nodeId', args.nodeId);
      const node = await ctx.db.read.node.findUnique({
        where: { id },
        include: { dependencies: { select: { dependsOn: true } } },
      });
      await assertRowAccess(ctx, node, 'Node', id);
      return toReadiness(node!.dependencies.map((d) => d.dependsOn));
    },
  }),
);

const ExecutionOrderRef = builder.objectRef<{ nodeIds: string[] }>('ExecutionOrder').implement({
  description: 'Nodes ordered so that each comes after what it depends on (ties keep tree order).',
  fields: (t) => ({
    nodeIds: t.exposeIDList('nodeIds'),
    nodes: t.prismaField({
      type: ['Node'],
      resolve: async (query, order, _args, ctx) => {
        const rows = await ctx.db.read.node.findMany({ ...query, where: { id: { in: order.nodeIds } } });
        return inOrder(rows, order.nodeIds);
      },
    }),
  }),
});

builder.queryField('executionOrder', (t) =>
  t.field({
    type: ExecutionOrderRef,
    errors: { types: ACCESS_ERRORS },
    args: { mapId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await assertMapAccess(ctx, String(args.mapId));
      const mapId = String(args.mapId);
      const [nodes, edges] = await Promise.all([
        ctx.db.read.node.findMany({ where: { mapId }, select: { id: true, parentId: true, position: true } }),
        ctx.db.read.dependency.findMany({ where: { mapId }, select: { nodeId: true, dependsOnId: true } }),
      ]);
      return {
        nodeIds: topologicalOrder(
          treeOrder(nodes).map((placed) => placed.node.id),
          edges,
        ),
      };
    },
  }),
);
