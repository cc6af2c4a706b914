import { isJsonObject } from '@thinkingmap/db';
import { GraphQLError, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * For a server people can reach: introspection is refused (graphql-js' own rule) and the parser's messages, which
 * quote the document back, become "Syntax error at line L, column C." (refusals naming a limit keep their text).
 * GraphiQL and field suggestions are turned off where the server is built (see app.ts and `armorPlugin`).
 */
export function useHiddenSchema(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (!(result instanceof GraphQLError) || result.extensions.code) return;
        const where = result.locations?.[0];
        const message = where ? `Syntax error at line ${where.line}, column ${where.column}.` : 'Syntax error.';
        replaceParseResult(new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } }));
      };
    },
  };
}

/**
 * Yoga answers a request it cannot read (a body that is not JSON, for instance) with the parser's own error under
 * `extensions.originalError`, which quotes the body back. Clients get the message and code only, always.
 */
export function useNoInternalDetails(): Plugin {
  const strip = (result: unknown) => {
    const errors = isJsonObject(result) && Array.isArray(result.errors) ? result.errors : [];
    for (const error of errors) {
      if (isJsonObject(error) && isJsonObject(error.extensions)) delete error.extensions.originalError;
    }
  };
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result)) result.forEach(strip);
      else strip(result);
    },
  };
}
