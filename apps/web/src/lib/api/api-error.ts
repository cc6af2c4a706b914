/** A typed error result of the API (`... on Error`), or a transport failure (`code: 'NETWORK'`). */
export interface ApiError {
  __typename: string;
  code: string;
  message: string;
  /** CycleError: node ids from the dependent node round to itself. */
  path?: string[];
  /** CycleError: the questions along `path`. */
  questions?: string[];
  /** VersionConflictError. */
  currentVersion?: number;
  expectedVersion?: number;
  /** ValidationError. */
  field?: string;
  reason?: string;
}

/** Whether a union result is one of the API's typed errors. */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).code === 'string' &&
    typeof (value as ApiError).message === 'string' &&
    /Error$/.test((value as ApiError).__typename ?? '')
  );
}
