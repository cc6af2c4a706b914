import { createThinkingMapClient, type ThinkingMapClient } from '@thinkingmap/client';
import { GRAPHQL_PATH, preloadingFetch, TOKEN_KEY } from './preload.ts';

/**
 * How often graphql-ws reconnects after a drop before the live feed gives up (its randomised exponential
 * backoff waits 1, 2, 4 … 128 s plus up to 3 s: about four minutes in all).
 */
const RECONNECT_ATTEMPTS = 8;

/** The endpoint on this page's origin (the server serves the web app and /graphql together). */
export function graphqlUrl(location: Pick<Location, 'origin'>): string {
  return `${location.origin}${GRAPHQL_PATH}`;
}

/**
 * Who the browser talks to the API as: a bearer token from sign-in, or none (the server's local user).
 * Holds one API client; changing the token replaces it.
 */
export class Session {
  token = $state<string | null>(null);
  #api: ThinkingMapClient | null = null;
  /**
   * Whether the client's graphql-ws socket is open now: a page that starts following a feed on a socket another
   * page opened (client-side navigation) is live at once, with no 'connected' event to wait for.
   */
  socketOpen = false;

  constructor(
    private readonly url: string,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
  ) {
    this.token = storage?.getItem(TOKEN_KEY) ?? null;
  }

  /** The API client for the current token (created on first use). */
  get api(): ThinkingMapClient {
    if (this.#api) return this.#api;
    const api = createThinkingMapClient({
      url: this.url,
      token: this.token,
      retryAttempts: RECONNECT_ATTEMPTS,
      // The map's first reads may already be under way, started by the page before its code loaded.
      fetch: preloadingFetch,
    });
    api.ws.on('connected', () => {
      if (this.#api === api) this.socketOpen = true;
    });
    api.ws.on('closed', () => {
      if (this.#api === api) this.socketOpen = false;
    });
    this.#api = api;
    return api;
  }

  /** Signs in with `token` (null: the local user) and drops the old client. */
  setToken(token: string | null): void {
    this.token = token?.trim() || null;
    if (this.token) this.storage?.setItem(TOKEN_KEY, this.token);
    else this.storage?.removeItem(TOKEN_KEY);
    void this.#api?.close();
    this.#api = null;
    this.socketOpen = false;
  }
}

const inBrowser = typeof window !== 'undefined';

/** The browser's session (the workspace renders in the browser only: `ssr = false`). */
export const session = new Session(
  inBrowser ? graphqlUrl(window.location) : 'http://127.0.0.1:4000/graphql',
  inBrowser ? window.localStorage : null,
);
