import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import type { ERROR_FIELDS } from './fragments.ts';

/** Any typed document of this package (a helper taking one reads its own result and variables types from it). */
// biome-ignore lint/suspicious/noExplicitAny: the widest document type; each use narrows to the document passed
export type AnyDocument = TadaDocumentNode<any, any>;

/** A helper's variables parameter for `Document`: optional when the document has no required variable. */
export type VariablesArgs<Document extends AnyDocument> =
  Record<string, never> extends VariablesOf<Document>
    ? [variables?: VariablesOf<Document>]
    : [variables: VariablesOf<Document>];

/** One of the API's typed errors (the schema's `Error` implementations), told apart by `__typename`. */
export type ApiErrorResult = ResultOf<typeof ERROR_FIELDS>;

/** The value of a document's single root field (`map`, `createNode`, …), typed errors included. */
export type RootFieldOf<Document> = ResultOf<Document>[keyof ResultOf<Document>];

/** The value of a document's single root field without the typed errors. */
export type SuccessOf<Document> = Exclude<RootFieldOf<Document>, { __typename: ApiErrorResult['__typename'] }>;

/**
 * Whether a root field's value is one of the API's typed errors: every result union spreads the
 * `ErrorFields` fragment, so an error carries its `code` and `message` and its type name ends in `Error`.
 */
export function isApiError<T>(value: T): value is Extract<T, ApiErrorResult> {
  if (typeof value !== 'object' || value === null) return false;
  return (
    '__typename' in value &&
    typeof value.__typename === 'string' &&
    value.__typename.endsWith('Error') &&
    'code' in value &&
    typeof value.code === 'string' &&
    'message' in value &&
    typeof value.message === 'string'
  );
}

/**
 * The value of the single root field of a document's result. Every document of this package selects
 * exactly one root field, so the first (only) value of `data` is that field's value.
 */
export function rootField<Document>(data: ResultOf<Document>): RootFieldOf<Document> {
  for (const field in data) return data[field];
  throw new Error('a result without its root field');
}
