import { type Progress, progressOf } from '@thinkingmap/map-graph';
import { ForbiddenError, NotFoundError } from '../commands/domain-errors.ts';
import { parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { LanguageEnum, MapModeEnum, MapStatusEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { strings } from './records.ts';

/** Adds each node's dependencies to a node-list query, so the list answers `dependencies` itself. */
function withDependencies<Q extends { include?: object; select?: object }>(query: Q): Q {
  if (query.select) return { select: { ...query.select, dependencies: true } } as Q;
  return { include: { ...query.include, dependencies: true } } as Q;
}

const MapProgressRef = builder.objectRef<Progress>('MapProgress').implement({
  description:
    'How far a map is. A node counts as concluded only while its conclusion is current: a stale one is open work again.',
  fields: (t) => ({
    total: t.exposeInt('total'),
    concluded: t.exposeInt('concluded', { description: 'Concluded, with a current conclusion.' }),
    open: t.exposeInt('open', { description: 'Not concluded yet, or concluded but out of date.' }),
    stale: t.exposeInt('stale', { description: 'Concluded once but out of date since (counted in `open`).' }),
  }),
});

export const MapRef = builder.prismaObject('Map', {
  description: 'A thinking map: a problem and the tree of questions that answers it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    problem: t.exposeString('problem'),
    goal: t.exposeString('goal'),
    constraints: t.stringList({ resolve: (map) => strings(map.constraints) }),
    language: t.expose('language', { type: LanguageEnum }),
    mode: t.expose('mode', { type: MapModeEnum }),
    status: t.expose('status', { type: MapStatusEnum }),
    autoRun: t.exposeBoolean('autoRun'),
    tokenBudget: t.exposeInt('tokenBudget', {
      nullable: true,
      description: 'Model tokens the agents may spend on this map; null for no limit.',
    }),
    tokensUsed: t.exposeInt('tokensUsed', { description: 'Model tokens the agents have spent on this map.' }),
    version: t.exposeInt('version'),
    lastSeq: t.exposeInt('lastSeq', {
      description: 'Sequence number of the latest event; subscribe with `after` to resume.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    nodes: t.prismaField({
      type: ['Node'],
      description: 'Every node of the map, in creation order (use parentId and position for the tree).',
      // One query for the whole list and its selected relations, cached until the map's next event.
      resolve: (query, map, _args, ctx) =>
        ctx.cache.load(map, `nodes:${JSON.stringify(query)}`, () =>
          ctx.db.read.node.findMany({
            ...withDependencies(query),
            where: { mapId: map.id },
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          }),
        ),
    }),
    root: t.prismaField({
      type: 'Node',
      nullable: true,
      resolve: (query, map, _args, ctx) =>
        ctx.db.read.node.findFirst({ ...query, where: { mapId: map.id, parentId: null } }),
    }),
    dependencies: t.prismaField({
      type: ['Dependency'],
      resolve: (query, map, _args, ctx) =>
        ctx.cache.load(map, `dependencies:${JSON.stringify(query)}`, () =>
          ctx.db.read.dependency.findMany({ ...query, where: { mapId: map.id }, orderBy: { createdAt: 'asc' } }),
        ),
    }),
    nodeCount: t.relationCount('nodes'),
    progress: t.field({
      type: MapProgressRef,
      // One small query, kept until the map's next event.
      resolve: async (map, _args, ctx) =>
        progressOf(
          await ctx.cache.load(map, 'progress', () =>
            ctx.db.read.node.findMany({ where: { mapId: map.id }, select: { status: true, staleReason: true } }),
          ),
        ),
    }),
  }),
});

builder.queryField('maps', (t) =>
  t.prismaField({
    type: ['Map'],
    description: "The viewer's maps, most recently changed first.",
    resolve: (query, _root, _args, ctx) =>
      ctx.db.read.map.findMany({ ...query, where: { ownerId: ctx.viewer.id }, orderBy: { updatedAt: 'desc' } }),
  }),
);

builder.queryField('map', (t) =>
  t.prismaField({
    type: 'Map',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = parseId('id', args.id);
      const map = await ctx.db.read.map.findUnique({ ...query, where: { id } });
      if (!map) throw new NotFoundError('Map', id);
      if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', id);
      return map;
    },
  }),
);
