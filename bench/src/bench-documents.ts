import { graphql } from '@thinkingmap/client';

/** What each fan-out subscriber selects: the updated node's question (the benchmark's marker). */
export const FANOUT_SUBSCRIPTION = graphql(`
  subscription Fanout($mapId: ID!) {
    mapEvents(mapId: $mapId) {
      __typename
      ... on NodeUpdated {
        seq
        node {
          question
        }
      }
    }
  }
`);

/** The edit that makes each fan-out event: a node's question at the version last seen. */
export const FANOUT_UPDATE_NODE = graphql(`
  mutation FanoutUpdate($i: UpdateNodeInput!) {
    updateNode(input: $i) {
      __typename
      ... on Node {
        version
      }
    }
  }
`);

/** The 1,000-node map read: question, goal, status, parent and dependencies of every node. */
export const MAP_NODES_QUERY = graphql(`
  query MapNodes($id: ID!) {
    map(id: $id) {
      ... on Map {
        nodes {
          id
          question
          goal
          status
          parentId
          dependencies {
            dependsOnId
          }
        }
      }
    }
  }
`);
