import type { Client, DocumentInput } from '@urql/core';
import { type ApiError, isApiError } from './api-error.ts';

/** The outcome of one API call: the value of its single root field, or a typed error. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

function unwrap<T>(result: { data?: unknown; error?: { message: string } }): ApiResult<T> {
  if (result.error)
    return { ok: false, error: { __typename: 'NetworkError', code: 'NETWORK', message: result.error.message } };
  const data = (result.data ?? {}) as Record<string, unknown>;
  const value = Object.values(data)[0];
  if (isApiError(value)) return { ok: false, error: value };
  return { ok: true, value: value as T };
}

/** Runs a query and unwraps its single root field. */
export async function runQuery<T>(
  client: Client,
  document: DocumentInput,
  variables: Record<string, unknown> = {},
): Promise<ApiResult<T>> {
  return unwrap<T>(await client.query(document, variables).toPromise());
}

/** Runs a mutation and unwraps its single root field (typed errors come back as `ok: false`). */
export async function runMutation<T>(
  client: Client,
  document: DocumentInput,
  variables: Record<string, unknown> = {},
): Promise<ApiResult<T>> {
  return unwrap<T>(await client.mutation(document, variables).toPromise());
}
