import { type ResultOf, VIEWER } from '@thinkingmap/client';
import { runQuery } from './request.ts';
import type { Session } from './session.svelte.ts';

/** The person the API acts as. */
export type Viewer = ResultOf<typeof VIEWER>['viewer'];

/**
 * Who is signed in, loaded from the API (`viewer`); `needsToken` when the server refuses without one. Both are
 * empty while the answer is unknown (not asked yet, or the server out of reach): a failed request says nothing
 * about whether a token is needed.
 */
export class ViewerState {
  viewer = $state<Viewer | null>(null);
  needsToken = $state(false);
  error = $state<string | null>(null);

  /** Asks the API who this session acts as. */
  async load(session: Session): Promise<void> {
    const result = await runQuery(session.api.client, VIEWER);
    if (result.ok) {
      this.viewer = result.value;
      this.needsToken = false;
      this.error = null;
    } else {
      this.viewer = null;
      this.needsToken = result.error.code !== 'NETWORK' && /unauth|token|401/i.test(result.error.message);
      this.error = result.error.message;
    }
  }
}

/** The app's viewer state. */
export const viewerState = new ViewerState();
