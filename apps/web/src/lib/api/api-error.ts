import type { ApiErrorResult } from '@thinkingmap/client';

/** The request never got an answer (network down, server unreachable). */
export interface NetworkError {
  __typename: 'NetworkError';
  code: 'NETWORK';
  message: string;
}

/** The server answered without a result (a GraphQL error: the request was refused or failed unexpectedly). */
export interface RequestError {
  __typename: 'RequestError';
  code: 'REQUEST';
  message: string;
}

/** A typed error result of the API (the schema's `Error` implementations, told apart by `__typename`), or a transport failure. */
export type ApiError = ApiErrorResult | NetworkError | RequestError;

/** A transport failure with `message`. */
export function networkError(message: string): NetworkError {
  return { __typename: 'NetworkError', code: 'NETWORK', message };
}

/** An answer without a result, with `message`. */
export function requestError(message: string): RequestError {
  return { __typename: 'RequestError', code: 'REQUEST', message };
}
