import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

/**
 * Writes a typed GraphQL document: its result and variables types are read from the committed
 * contract (apps/server/schema.graphql, through `graphql-env.d.ts`), so no type is written by hand.
 * Fragments are not masked: a document's result carries its fragments' fields directly.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: {
    /** Serialised as an ISO 8601 string. */
    DateTime: string;
    /** Free-form JSON written by the server (question context, message metadata). */
    JSON: unknown;
  };
  disableMasking: true;
}>();

/** The TypeScript type of one of the schema's enums (or scalars), e.g. `SchemaEnum<'NodeStatus'>`. */
export type SchemaEnum<Name extends string> = ReturnType<typeof graphql.scalar<Name>>;

export type { FragmentOf, ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
