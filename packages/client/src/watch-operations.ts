import { DECISION_FIELDS, ERROR_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** Every agent graph's topology, as the run view draws it. */
export const AGENT_GRAPHS = graphql(`
  query AgentGraphs {
    agentGraphs {
      name
      nodes {
        id
        kind
        interrupt
      }
      edges {
        source
        target
        conditional
        label
      }
      interruptPoints
    }
  }
`);

/** A map's history, newest change first, with what undo and redo would take back. */
export const MAP_HISTORY = graphql(
  `
  query MapHistory($mapId: ID!, $first: Int) {
    mapHistory(mapId: $mapId, first: $first) {
      __typename
      ... on MapHistory {
        undoSeq
        redoSeq
        changes {
          seq
          lastSeq
          at
          kind
          actorId
          runId
          step
          revertsSeq
          revertedBy
          entries {
            entity
            id
            action
            label
            fields {
              field
              before
              after
            }
          }
        }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** The change undo, redo, undoRun or restoreMap wrote. */
const COMPENSATION_FIELDS = graphql(`
  fragment CompensationFields on CompensationResult {
    mapId
    seq
  }
`);

/** Why undo, redo, undoRun or restoreMap refused. */
const UNDO_REFUSAL_FIELDS = graphql(`
  fragment UndoRefusalFields on UndoRefusedError {
    reason
    laterSeq
    entityId
  }
`);

/** Takes back the person's last change (compensating events). */
export const UNDO_LAST_CHANGE = graphql(
  `
  mutation UndoLastChange($mapId: ID!) {
    undoLastChange(mapId: $mapId) {
      __typename
      ...CompensationFields
      ...UndoRefusalFields
      ...ErrorFields
    }
  }
`,
  [COMPENSATION_FIELDS, UNDO_REFUSAL_FIELDS, ERROR_FIELDS],
);

/** Redoes the person's last undo. */
export const REDO_LAST_UNDO = graphql(
  `
  mutation RedoLastUndo($mapId: ID!) {
    redoLastUndo(mapId: $mapId) {
      __typename
      ...CompensationFields
      ...UndoRefusalFields
      ...ErrorFields
    }
  }
`,
  [COMPENSATION_FIELDS, UNDO_REFUSAL_FIELDS, ERROR_FIELDS],
);

/** Takes back everything one run created or changed. */
export const UNDO_RUN = graphql(
  `
  mutation UndoRun($runId: ID!) {
    undoRun(runId: $runId) {
      __typename
      ...CompensationFields
      ...UndoRefusalFields
      ...ErrorFields
    }
  }
`,
  [COMPENSATION_FIELDS, UNDO_REFUSAL_FIELDS, ERROR_FIELDS],
);

/** Restores the map as it was after event `seq`, as a new version. */
export const RESTORE_MAP = graphql(
  `
  mutation RestoreMap($mapId: ID!, $seq: Int!) {
    restoreMap(mapId: $mapId, seq: $seq) {
      __typename
      ...CompensationFields
      ...UndoRefusalFields
      ...ErrorFields
    }
  }
`,
  [COMPENSATION_FIELDS, UNDO_REFUSAL_FIELDS, ERROR_FIELDS],
);

/**
 * A run's path so far: the steps it visited (rounds of a loop), their outcomes, the current step, and each
 * step's state (context used, answer, question and the person's reply, decisions).
 */
export const RUN_PATH = graphql(
  `
  query RunPath($runId: ID!) {
    runPath(runId: $runId) {
      __typename
      ... on RunPath {
        runId
        graph
        current
        checkpointsKept
        steps {
          step
          branch
          round
          enteredSeq
          enteredAt
          outcome
          durationMs
          context {
            source
            title
            excerpt
          }
          answer
          question
          reply {
            action
            text
            answeredAt
          }
          proposal {
            key
            question
            goal
            dependsOn
          }
          decisions {
            ...DecisionFields
          }
        }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS, DECISION_FIELDS],
);
