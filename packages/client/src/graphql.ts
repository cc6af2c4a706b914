import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

/** gql.tada's `graphql`, which parses the text at once. */
const parseNow = initGraphQLTada<{
  introspection: introspection;
  scalars: {
    /** Serialised as an ISO 8601 string. */
    DateTime: string;
    /** Free-form JSON written by the server (question context, message metadata). */
    JSON: unknown;
  };
  disableMasking: true;
}>();

/**
 * A document that is parsed the first time it is read: a page imports every document of the API but sends only a
 * few of them at start, so a page's start parses those few instead of all of them. Reads and writes of the
 * document's parts (urql keeps its own `loc`) go to the parsed document.
 */
function parsedWhenRead(parse: () => { definitions: unknown; loc?: unknown }) {
  let parsed: ReturnType<typeof parse> | undefined;
  const document = () => {
    parsed ??= parse();
    return parsed;
  };
  return {
    kind: 'Document',
    get definitions() {
      return document().definitions;
    },
    get loc() {
      return document().loc;
    },
    set loc(value) {
      document().loc = value;
    },
  };
}

/**
 * Writes a typed GraphQL document: its result and variables types are read from the committed
 * contract (apps/server/schema.graphql, through `graphql-env.d.ts`), so no type is written by hand.
 * Fragments are not masked: a document's result carries its fragments' fields directly. The text is parsed when
 * the document is first used ({@link parsedWhenRead}); the call keeps gql.tada's signature, `scalar` and `persisted`.
 */
export const graphql = new Proxy(parseNow, {
  apply: (target, self, args) => parsedWhenRead(() => Reflect.apply(target, self, args)),
});

/** The TypeScript type of one of the schema's enums (or scalars), e.g. `SchemaEnum<'NodeStatus'>`. */
export type SchemaEnum<Name extends string> = ReturnType<typeof graphql.scalar<Name>>;

export type { FragmentOf, ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
