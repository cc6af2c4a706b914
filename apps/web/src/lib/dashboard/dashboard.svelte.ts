import { DASHBOARD, type SuccessOf } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { throttle } from 'es-toolkit';
import { runQuery } from '../api/request.ts';
import { ShownError } from '../api/shown-error.svelte.ts';

/** The dashboard as DASHBOARD returns it. */
export type DashboardData = SuccessOf<typeof DASHBOARD>['data'];

/** At most one read of the dashboard per this many milliseconds, however many events arrive. */
export const REFRESH_MS = 500;

/**
 * The dashboard page's state: the last overview read, read again (throttled: at once, then at most every
 * {@link REFRESH_MS}, the last change always followed by a read) whenever something changed. An answer that
 * arrives after a newer read started is dropped, so the page never goes back in time.
 */
export class DashboardState {
  data = $state<DashboardData | null>(null);
  readonly error = new ShownError();
  #started = 0;
  #shown = 0;
  readonly #refresh = throttle(() => void this.load(), REFRESH_MS);

  constructor(
    private readonly client: () => Client,
    readonly days: number,
  ) {}

  /** Reads the dashboard now. */
  async load(): Promise<void> {
    const read = ++this.#started;
    const result = await runQuery(this.client(), DASHBOARD, { days: this.days });
    if (read < this.#shown) return;
    this.#shown = read;
    if (result.ok) {
      this.data = result.value.data;
      this.error.set(null);
    } else this.error.set(result.error);
  }

  /** Something changed on one of the viewer's maps: read again soon. */
  changed = (): void => this.#refresh();

  /** Stops reading (the page is gone). */
  stop(): void {
    this.#refresh.cancel();
  }
}
