import { GraphQLError } from 'graphql';
import { DomainError, ValidationError } from '../commands/domain-errors.ts';
import { isEventType } from '../commands/event-contracts.ts';
import { parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { MapEventUnion } from './events.type.ts';
import { decodeFeedCursor } from './viewer-cursor.ts';
import { readViewerEvents, type ViewerEventPage } from './viewer-event-log.ts';
import { type FeedItem, viewerEventStream } from './viewer-event-stream.ts';

const ViewerEventEdgeRef = builder.objectRef<FeedItem>('ViewerEventEdge').implement({
  description: 'An event of the viewer-wide feed and the cursor that resumes right after it.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Opaque; pass it as `after` to resume after this event.' }),
    event: t.field({ type: MapEventUnion, resolve: (edge) => edge.event }),
  }),
});

const ViewerEventPageRef = builder.objectRef<ViewerEventPage>('ViewerEventPage').implement({
  fields: (t) => ({
    edges: t.field({ type: [ViewerEventEdgeRef], resolve: (page) => page.edges }),
    endCursor: t.exposeString('endCursor', {
      description: 'Resumes after this page: as the next page’s `after`, or the subscription’s to go live.',
    }),
    hasMore: t.exposeBoolean('hasMore'),
  }),
});

/** The feed's filters, checked: ids well formed, types among the events that exist. */
function parseFilters(args: {
  after?: string | null;
  mapIds?: readonly (string | number)[] | null;
  types?: readonly string[] | null;
}) {
  const types = (args.types ?? []).map((type) => {
    if (!isEventType(type)) throw new ValidationError('types', `${type} is not an event type`);
    return type;
  });
  return {
    after: args.after == null ? null : decodeFeedCursor(args.after),
    mapIds: args.mapIds ? args.mapIds.map((id) => parseId('mapIds', id)) : null,
    types: args.types == null ? null : types,
  };
}

const FILTER_DESCRIPTION = {
  after: 'A cursor this feed gave (an edge’s `cursor` or a page’s `endCursor`).',
  mapIds: 'Only these maps (of the viewer’s).',
  types: 'Only these event types (`NodeCreated`, `AgentQuestion`, …).',
};

builder.queryField('viewerEvents', (t) =>
  t.field({
    type: ViewerEventPageRef,
    description:
      'Stored events of every map the viewer owns, in commit order (per map in `seq` order), after `after`. ' +
      'A page’s `endCursor` continues with the next page, or live through the `viewerEvents` subscription.',
    errors: { types: ACCESS_ERRORS },
    args: {
      first: t.arg.int({ defaultValue: 100 }),
      after: t.arg.string({ required: false, description: FILTER_DESCRIPTION.after }),
      mapIds: t.arg.idList({ required: false, description: FILTER_DESCRIPTION.mapIds }),
      types: t.arg.stringList({ required: false, description: FILTER_DESCRIPTION.types }),
    },
    resolve: async (_root, args, ctx) => {
      const first = args.first ?? 100;
      if (first < 1 || first > 1000) throw new ValidationError('first', 'must be between 1 and 1000');
      return readViewerEvents(ctx.db.read, { viewerId: ctx.viewer.id, first, ...parseFilters(args) });
    },
  }),
);

builder.subscriptionField('viewerEvents', (t) =>
  t.field({
    type: ViewerEventEdgeRef,
    description:
      'Every event of every map the viewer owns, live, for dashboards; maps created later join. With `after` (a ' +
      'cursor of this feed) what was missed on every map is replayed first, then live events follow: no gap, no ' +
      'duplicate, per-map order kept. A deleted map’s events end with its MapDeleted.',
    args: {
      after: t.arg.string({ required: false, description: FILTER_DESCRIPTION.after }),
      mapIds: t.arg.idList({ required: false, description: FILTER_DESCRIPTION.mapIds }),
      types: t.arg.stringList({ required: false, description: FILTER_DESCRIPTION.types }),
    },
    subscribe: (_root, args, ctx) => {
      try {
        return viewerEventStream({
          db: ctx.db.read,
          bus: ctx.bus,
          viewerId: ctx.viewer.id,
          ...parseFilters(args),
          turn: ctx.replay.forOwner(ctx.viewer.id),
        });
      } catch (error) {
        if (error instanceof DomainError) throw new GraphQLError(error.message, { extensions: { code: error.code } });
        throw error;
      }
    },
    resolve: (item: FeedItem) => item,
  }),
);
