import { builder } from '../schema/builder.ts';

builder.prismaObject('User', {
  description: 'A person; every request acts as one.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    isLocal: t.exposeBoolean('isLocal', { description: 'The embedded default user (no token needed locally).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    description: 'Who this request acts as.',
    resolve: (query, _root, _args, ctx) =>
      ctx.db.read.user.findUniqueOrThrow({ ...query, where: { id: ctx.viewer.id } }),
  }),
);
