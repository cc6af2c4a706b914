import { ERROR_FIELDS, RUN_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** Starts divergent exploration on a node; the run's id is the session's id. */
export const START_DIVERGENT = graphql(
  `
  mutation StartDivergent($input: StartDivergentInput!) {
    startDivergent(input: $input) {
      __typename
      ... on AgentRun {
        ...RunFields
      }
      ...ErrorFields
    }
  }
`,
  [RUN_FIELDS, ERROR_FIELDS],
);

/** A divergent session: its levels with tasks and scores (each dimension with its reason), how it ended. */
export const DIVERGENT_SESSION = graphql(
  `
  query DivergentSession($id: ID!) {
    divergentSession(id: $id) {
      __typename
      ... on DivergentSession {
        id
        nodeId
        status
        level
        threshold
        maxLevels
        maxParallel
        reviewEachLevel
        outcome
        finalNodeId
        note
        levels {
          level
          plannedFromNodeId
          tasks { key nodeId name query skill priority status reason }
          dropped { name skill priority reason }
          score { overall }
        }
        scores {
          level
          summaryNodeId
          overall
          threshold
          completeness { score reason }
          intentMatch { score reason }
          quality { score reason }
        }
        runningTasks { key nodeId name }
        droppedTasks { level name reason }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);
