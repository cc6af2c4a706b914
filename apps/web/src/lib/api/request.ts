import {
  type AnyDocument,
  isApiError,
  type ResultOf,
  rootField,
  type SuccessOf,
  type VariablesArgs,
} from '@thinkingmap/client';
import type { AnyVariables, Client, OperationResult } from '@urql/core';
import { type ApiError, networkError, requestError } from './api-error.ts';
import { connectivity } from './connectivity.svelte.ts';

/** The outcome of one API call: the value of its single root field, or a typed error. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/**
 * The single root field of a result, or its error. Every answer also tells {@link connectivity} whether the
 * server can be reached: a network failure marks it lost, any answer after that marks it back.
 */
function unwrap<D extends AnyDocument>(result: OperationResult<ResultOf<D>, AnyVariables>): ApiResult<SuccessOf<D>> {
  if (result.error?.networkError) connectivity.lost();
  else if (!connectivity.online) connectivity.restored();
  if (result.error)
    return {
      ok: false,
      error: result.error.networkError ? networkError(result.error.message) : requestError(result.error.message),
    };
  if (!result.data) return { ok: false, error: networkError('no data in the response') };
  const value = rootField<D>(result.data);
  if (isApiError(value)) return { ok: false, error: value };
  return { ok: true, value };
}

/** Runs a query and unwraps its single root field (typed errors come back as `ok: false`). */
export async function runQuery<D extends AnyDocument>(
  client: Client,
  document: D,
  ...[variables]: VariablesArgs<D>
): Promise<ApiResult<SuccessOf<D>>> {
  return unwrap<D>(await client.query(document, variables ?? {}).toPromise());
}

/** Runs a mutation and unwraps its single root field (typed errors come back as `ok: false`). */
export async function runMutation<D extends AnyDocument>(
  client: Client,
  document: D,
  ...[variables]: VariablesArgs<D>
): Promise<ApiResult<SuccessOf<D>>> {
  return unwrap<D>(await client.mutation(document, variables ?? {}).toPromise());
}
