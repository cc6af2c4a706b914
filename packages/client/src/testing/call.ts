import type { Client } from '@urql/core';
import { Kind } from 'graphql';
import {
  type AnyDocument,
  isApiError,
  type RootFieldOf,
  rootField,
  type SuccessOf,
  type VariablesArgs,
} from '../api-result.ts';

/** Runs a query or mutation and returns urql's whole result, so a test can inspect transport and GraphQL errors. */
export function raw<D extends AnyDocument>(client: Client, document: D, ...[variables]: VariablesArgs<D>) {
  const isMutation = document.definitions.some(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation',
  );
  return isMutation
    ? client.mutation(document, variables ?? {}).toPromise()
    : client.query(document, variables ?? {}).toPromise();
}

/**
 * Runs a query or mutation from a test and returns its single root field, typed from the document,
 * typed errors included (narrow them by `__typename`). A transport or GraphQL error throws.
 */
export async function attempt<D extends AnyDocument>(
  client: Client,
  document: D,
  ...variables: VariablesArgs<D>
): Promise<RootFieldOf<D>> {
  const result = await raw(client, document, ...variables);
  if (result.error) throw new Error(`GraphQL error: ${result.error.message}`);
  if (!result.data) throw new Error('GraphQL response without data');
  return rootField<D>(result.data);
}

/**
 * Runs a query or mutation from a test that expects it to succeed, and returns its root field without
 * the typed errors: a typed error throws (`API refused: CODE message`), as do transport and GraphQL errors.
 */
export async function call<D extends AnyDocument>(
  client: Client,
  document: D,
  ...variables: VariablesArgs<D>
): Promise<SuccessOf<D>> {
  const value = await attempt(client, document, ...variables);
  if (isApiError(value)) throw new Error(`API refused: ${value.code} ${value.message} (${JSON.stringify(value)})`);
  return value;
}
