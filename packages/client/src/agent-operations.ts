import { ERROR_FIELDS, PENDING_QUESTION_FIELDS, RUN_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** Starts the agents on a node; intent, strategy and conclusion kind override the agents' own choice. */
export const PROCESS_NODE = graphql(
  `
  mutation ProcessNode(
    $nodeId: ID!
    $intent: NodeIntent
    $strategy: DecompositionStrategy
    $conclusionKind: ConclusionKind
  ) {
    processNode(nodeId: $nodeId, intent: $intent, strategy: $strategy, conclusionKind: $conclusionKind) {
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

/** Answers a paused run's question (accept, text or an exact reply); the run resumes. */
export const REPLY_TO_AGENT = graphql(
  `
  mutation ReplyToAgent($input: ReplyToAgentInput!) {
    replyToAgent(input: $input) {
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

/** Approves proposed sub-questions (with edits) or rejects them with feedback. */
export const REVIEW_DECOMPOSITION = graphql(
  `
  mutation ReviewDecomposition($input: ReviewDecompositionInput!) {
    reviewDecomposition(input: $input) {
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

/** Re-runs a node run from one of its steps with changed input (a new run, linked to the original). */
export const FORK_RUN = graphql(
  `
  mutation ForkRun($input: ForkRunInput!) {
    forkRun(input: $input) {
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

/** Cancels a running or waiting run. */
export const CANCEL_RUN = graphql(
  `
  mutation CancelRun($runId: ID!) {
    cancelRun(runId: $runId) {
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

/** A map's agent runs. */
export const RUNS = graphql(
  `
  query Runs($mapId: ID!) {
    runs(mapId: $mapId) {
      __typename
      ... on QueryRunsSuccess {
        data {
          ...RunFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [RUN_FIELDS, ERROR_FIELDS],
);

/** The questions a map's paused runs wait on. */
export const PENDING_QUESTIONS = graphql(
  `
  query PendingQuestions($mapId: ID!) {
    pendingQuestions(mapId: $mapId) {
      __typename
      ... on QueryPendingQuestionsSuccess {
        data {
          ...PendingQuestionFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [PENDING_QUESTION_FIELDS, ERROR_FIELDS],
);

/** Which model the agents use, and whether it is the offline one. */
export const AGENT_MODEL = graphql(`
  query AgentModel {
    agentModel {
      offline
      label
      capabilities {
        structuredOutput
        streamUsage
        toolChoice
      }
    }
  }
`);

/** Every question waiting for the viewer, across all their maps (the workspace's inbox). */
export const INBOX = graphql(
  `
  query Inbox {
    viewer {
      id
      pendingQuestions {
        ...PendingQuestionFields
      }
    }
  }
`,
  [PENDING_QUESTION_FIELDS],
);
