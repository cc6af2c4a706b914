import { ERROR_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** What a token list shows of one token (never the token itself). */
export const API_TOKEN_FIELDS = graphql(`
  fragment ApiTokenFields on ApiToken {
    id
    label
    scope
    createdAt
    expiresAt
    revokedAt
    active
    current
  }
`);

/** The viewer's tokens, newest first. */
export const API_TOKENS = graphql(
  `
  query ApiTokens {
    apiTokens {
      ...ApiTokenFields
    }
  }
`,
  [API_TOKEN_FIELDS],
);

/** Issues a token (FULL or READ_ONLY, optionally expiring); the token is in the answer, and only there. */
export const CREATE_API_TOKEN = graphql(
  `
  mutation CreateApiToken($label: String, $scope: TokenScope, $expiresAt: DateTime) {
    createApiToken(label: $label, scope: $scope, expiresAt: $expiresAt) {
      __typename
      ... on CreatedApiToken {
        token
        apiToken {
          ...ApiTokenFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [API_TOKEN_FIELDS, ERROR_FIELDS],
);

/** Revokes one of the viewer's tokens, at once on every instance. */
export const REVOKE_API_TOKEN = graphql(
  `
  mutation RevokeApiToken($id: ID!) {
    revokeApiToken(id: $id) {
      __typename
      ... on ApiToken {
        ...ApiTokenFields
      }
      ...ErrorFields
    }
  }
`,
  [API_TOKEN_FIELDS, ERROR_FIELDS],
);
