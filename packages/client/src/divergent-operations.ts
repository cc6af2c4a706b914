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

/** The fields of a divergent session: its levels with tasks and scores, the person's steering, how it ended. */
export const DIVERGENT_SESSION_FIELDS = graphql(`
  fragment DivergentSessionFields on DivergentSession {
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
    drewOn
    levels {
      level
      plannedFromNodeId
      tasks { key nodeId name query skill priority status reason addedByPerson }
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
    stopRequested
    feedback { id text at }
    addedTasks { id name query skill priority level at }
  }
`);

/** A divergent session: its levels with tasks and scores (each dimension with its reason), how it ended. */
export const DIVERGENT_SESSION = graphql(
  `
  query DivergentSession($id: ID!) {
    divergentSession(id: $id) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Stops a session gracefully: finished tasks kept, running ones skipped, a final output from what exists. */
export const STOP_DIVERGENT = graphql(
  `
  mutation StopDivergent($input: StopDivergentInput!) {
    stopDivergent(input: $input) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Skips a planned or running task (aborted, marked SKIPPED). */
export const SKIP_DIVERGENT_TASK = graphql(
  `
  mutation SkipDivergentTask($input: SkipDivergentTaskInput!) {
    skipDivergentTask(input: $input) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Adds a task to the level being planned or reviewed, else the next. */
export const ADD_DIVERGENT_TASK = graphql(
  `
  mutation AddDivergentTask($input: AddDivergentTaskInput!) {
    addDivergentTask(input: $input) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Changes the completion threshold. */
export const SET_DIVERGENT_THRESHOLD = graphql(
  `
  mutation SetDivergentThreshold($input: SetDivergentThresholdInput!) {
    setDivergentThreshold(input: $input) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Adds feedback the next summary takes into account. */
export const ADD_DIVERGENT_FEEDBACK = graphql(
  `
  mutation AddDivergentFeedback($input: AddDivergentFeedbackInput!) {
    addDivergentFeedback(input: $input) {
      __typename
      ...DivergentSessionFields
      ...ErrorFields
    }
  }
`,
  [DIVERGENT_SESSION_FIELDS, ERROR_FIELDS],
);

/** Every divergent skill, whether this server offers it, and the reason code when not. */
export const DIVERGENT_SKILLS = graphql(`
  query DivergentSkills {
    divergentSkills { name available reason }
  }
`);
