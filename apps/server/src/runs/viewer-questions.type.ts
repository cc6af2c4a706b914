import { builder } from '../schema/builder.ts';
import { ANSWERABLE_QUESTION } from './answerable-questions.ts';

builder.prismaObjectField('User', 'pendingQuestions', (t) =>
  t.prismaField({
    type: ['AgentQuestion'],
    description:
      'Questions waiting for this person across all their maps, oldest first: the inbox a workspace shows in its ' +
      'header, expired reviews and confirmations of paused runs included (still answerable). Only the viewer’s ' +
      'own questions (empty for anyone else).',
    resolve: async (query, user, _args, ctx) => {
      // Someone else's inbox reads as empty (the query still runs, on no map, so its selection is used).
      const maps =
        user.id === ctx.viewer.id
          ? await ctx.db.read.map.findMany({ where: { ownerId: user.id }, select: { id: true } })
          : [];
      return ctx.db.read.agentQuestion.findMany({
        ...query,
        where: { ...ANSWERABLE_QUESTION, mapId: { in: maps.map((map) => map.id) } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
    },
  }),
);
