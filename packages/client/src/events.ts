import { ERROR_FIELDS, EVENT_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** A page of a map's stored events after a sequence number. */
export const EVENTS = graphql(
  `
  query Events($mapId: ID!, $after: Int, $first: Int) {
    events(mapId: $mapId, after: $after, first: $first) {
      __typename
      ... on EventPage {
        hasMore
        lastSeq
        events {
          ...EventFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [EVENT_FIELDS, ERROR_FIELDS],
);

/** A map's events, stored ones after `after` first, then live ones; every client subscribes with it. */
export const MAP_EVENTS = graphql(
  `
  subscription MapEvents($mapId: ID!, $after: Int) {
    mapEvents(mapId: $mapId, after: $after) {
      ...EventFields
    }
  }
`,
  [EVENT_FIELDS],
);

/** A page of the viewer-wide feed (every map the viewer owns), resumable by cursor. */
export const VIEWER_EVENTS = graphql(
  `
  query ViewerEvents($first: Int, $after: String, $mapIds: [ID!], $types: [String!]) {
    viewerEvents(first: $first, after: $after, mapIds: $mapIds, types: $types) {
      __typename
      ... on ViewerEventPage {
        endCursor
        hasMore
        edges {
          cursor
          event {
            ...EventFields
          }
        }
      }
      ...ErrorFields
    }
  }
`,
  [EVENT_FIELDS, ERROR_FIELDS],
);

/** The viewer-wide feed, live; with `after` (a cursor of the feed) what was missed is replayed first. */
export const VIEWER_EVENTS_FEED = graphql(
  `
  subscription ViewerEventsFeed($after: String, $mapIds: [ID!], $types: [String!]) {
    viewerEvents(after: $after, mapIds: $mapIds, types: $types) {
      cursor
      event {
        ...EventFields
      }
    }
  }
`,
  [EVENT_FIELDS],
);
