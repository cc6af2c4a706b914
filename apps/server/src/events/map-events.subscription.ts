import { GraphQLError } from 'graphql';
import { DomainError } from '../commands/domain-errors.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { MapEventUnion } from './events.type.ts';
import { mapEventStream } from './map-event-stream.ts';

builder.subscriptionField('mapEvents', (t) =>
  t.field({
    type: MapEventUnion,
    description:
      'Every change to a map, live. With `after`, stored events with a greater sequence number are replayed ' +
      'first and live ones follow, with no gap and no duplicate.',
    args: {
      mapId: t.arg.id({ required: true }),
      after: t.arg.int({ required: false }),
    },
    subscribe: async (_root, args, ctx) => {
      try {
        await assertMapAccess(ctx, String(args.mapId));
      } catch (error) {
        if (error instanceof DomainError) throw new GraphQLError(error.message, { extensions: { code: error.code } });
        throw error;
      }
      if (args.after != null && args.after < 0) {
        throw new GraphQLError('after: must not be negative', { extensions: { code: 'VALIDATION' } });
      }
      return mapEventStream({
        db: ctx.db.read,
        bus: ctx.bus,
        mapId: String(args.mapId),
        after: args.after,
        turn: ctx.replay.forOwner(ctx.viewer.id),
      });
    },
    resolve: (event: MapEvent) => event,
  }),
);
