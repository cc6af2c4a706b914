import { graphql } from '@thinkingmap/client';

/** What a person's open map listens to, as the web workspace does: enough to know what to answer next. */
export const SOAK_MAP_EVENTS = graphql(`
  subscription SoakMapEvents($mapId: ID!, $after: Int) {
    mapEvents(mapId: $mapId, after: $after) {
      __typename
      ... on SequencedEvent {
        seq
      }
      ... on AgentQuestion {
        requestId
        kind
        nodeId
      }
      ... on NodeCreated {
        node {
          id
          parentId
        }
      }
      ... on RunFinished {
        runId
      }
      ... on RunFailed {
        runId
      }
      ... on ConsultationChanged {
        consultationId
        change
      }
    }
  }
`);

/** A dashboard's feed: every event of the viewer's maps, with the cursor to resume from. */
export const SOAK_FEED = graphql(`
  subscription SoakFeed($after: String) {
    viewerEvents(after: $after) {
      cursor
      event {
        __typename
        ... on SequencedEvent {
          mapId
          seq
        }
      }
    }
  }
`);

/** The smallest query: what the latency probe measures. */
export const SOAK_PROBE = graphql(`
  query SoakProbe {
    viewer {
      id
    }
  }
`);
