import { builder } from '../schema/builder.ts';

/** Readiness as resolvers pass it around. */
export interface ReadinessShape {
  ready: boolean;
  reason: string | null;
  openDependencyIds: string[];
}

export const ReadinessRef = builder.objectRef<ReadinessShape>('Readiness').implement({
  description: 'Ready when every dependency is completed; otherwise blocked, naming what it waits for.',
  fields: (t) => ({
    ready: t.exposeBoolean('ready'),
    blockedReason: t.exposeString('reason', {
      nullable: true,
      description: 'What the node waits for, in words; null when ready.',
    }),
    openDependencies: t.prismaField({
      type: ['Node'],
      resolve: (query, shape, _args, ctx) =>
        shape.openDependencyIds.length === 0
          ? []
          : ctx.db.read.node.findMany({ ...query, where: { id: { in: shape.openDependencyIds } } }),
    }),
  }),
});
