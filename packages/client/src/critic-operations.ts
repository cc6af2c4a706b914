import { ERROR_FIELDS, RUN_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** Everything the web shows of a critic suggestion. */
export const SUGGESTION_FIELDS = graphql(`
  fragment SuggestionFields on CriticSuggestion {
    id
    mapId
    runId
    kind
    status
    nodeIds
    explanation
    change {
      command
      nodeId
      parentId
      dependsOnId
      question
      goal
    }
    createdAt
    resolvedAt
  }
`);

/** Starts a critic review of a map, or of the subtree under a node. */
export const START_CRITIC = graphql(
  `
  mutation StartCritic($input: StartCriticInput!) {
    startCritic(input: $input) {
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

/** A map's critic suggestions, newest first (one status, or all). */
export const CRITIC_SUGGESTIONS = graphql(
  `
  query CriticSuggestions($mapId: ID!, $status: SuggestionStatus) {
    criticSuggestions(mapId: $mapId, status: $status) {
      __typename
      ... on QueryCriticSuggestionsSuccess {
        data {
          ...SuggestionFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [SUGGESTION_FIELDS, ERROR_FIELDS],
);

/** Accepts a suggestion: its change is made through the normal command. */
export const ACCEPT_SUGGESTION = graphql(
  `
  mutation AcceptSuggestion($suggestionId: ID!) {
    acceptSuggestion(suggestionId: $suggestionId) {
      __typename
      ... on CriticSuggestion {
        ...SuggestionFields
      }
      ...ErrorFields
    }
  }
`,
  [SUGGESTION_FIELDS, ERROR_FIELDS],
);

/** Dismisses a suggestion. */
export const DISMISS_SUGGESTION = graphql(
  `
  mutation DismissSuggestion($suggestionId: ID!) {
    dismissSuggestion(suggestionId: $suggestionId) {
      __typename
      ... on CriticSuggestion {
        ...SuggestionFields
      }
      ...ErrorFields
    }
  }
`,
  [SUGGESTION_FIELDS, ERROR_FIELDS],
);
