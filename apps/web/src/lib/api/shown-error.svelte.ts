import type { ApiError } from './api-error.ts';
import { type Connectivity, connectivity } from './connectivity.svelte.ts';

/**
 * An error a form or panel shows. A network error goes away by itself once the connection is back (the
 * person need not dismiss what is no longer true); any other error stays until replaced or cleared.
 */
export class ShownError {
  #error = $state<{ error: ApiError | string; epoch: number } | null>(null);

  constructor(private readonly link: Connectivity = connectivity) {}

  /** Shows `error` (an API error or a message), or nothing. */
  set(error: ApiError | string | null): void {
    this.#error = error === null ? null : { error, epoch: this.link.epoch };
  }

  /** The error to show now, or null. */
  get current(): ApiError | string | null {
    const shown = this.#error;
    if (!shown) return null;
    if (isNetworkError(shown.error) && shown.epoch !== this.link.epoch) return null;
    return shown.error;
  }

  /** Whether what is shown is a network error. */
  get network(): boolean {
    const current = this.current;
    return current !== null && isNetworkError(current);
  }
}

/** Whether an error is a transport failure (the connection, not the request, failed). */
export function isNetworkError(error: ApiError | string): boolean {
  return typeof error !== 'string' && error.__typename === 'NetworkError';
}
