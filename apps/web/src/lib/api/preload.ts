import type { AnyDocument, VariablesOf } from '@thinkingmap/client';
import { createRequest, makeOperation, type OperationContext } from '@urql/core';
import { makeFetchBody, makeFetchOptions } from '@urql/core/internal';

/** Where the page's API is, on the page's own origin. */
export const GRAPHQL_PATH = '/graphql';

/** Where the browser keeps the signed-in person's token. */
export const TOKEN_KEY = 'thinkingmap.token';

/** The global the page's first script leaves its requests in, for the API client to take. */
const GLOBAL = '__tmPreloaded';

declare global {
  interface Window {
    /** The requests the page's first script started ({@link preloadScript}). */
    [GLOBAL]?: Preloaded[];
  }
}

/** A query as urql's fetch sends it: the same bytes, so the answer is the one urql would have asked for. */
export interface FetchRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A request the page started before its code loaded. */
interface Preloaded {
  url: string;
  body: string;
  authorization: string | null;
  response: Promise<Response>;
}

/** The request urql's fetch makes for `document` with `variables` (without the token, added by the page). */
export function fetchRequestOf<D extends AnyDocument>(document: D, variables: VariablesOf<D>): FetchRequest {
  const context: OperationContext = { url: GRAPHQL_PATH, requestPolicy: 'network-only' };
  const operation = makeOperation('query', createRequest(document, variables), context);
  const options = makeFetchOptions(operation, makeFetchBody(operation));
  return { url: GRAPHQL_PATH, body: String(options.body), headers: Object.fromEntries(new Headers(options.headers)) };
}

/**
 * An inline script for the page's `<head>` that starts `requests` at once, with the person's token, while the
 * app's code is still loading; the API client then takes their answers ({@link takePreloaded}) instead of asking
 * again. Written into the HTML by the server (hooks.server.ts), so the requests and the app's come from one place.
 */
export function preloadScript(requests: FetchRequest[]): string {
  const data = JSON.stringify(requests).replace(/</g, '\\u003c');
  return `<script>(function(){try{var t=localStorage.getItem(${JSON.stringify(TOKEN_KEY)}),l=window.${GLOBAL}=[];${data}.forEach(function(r){var h=Object.assign({},r.headers);if(t)h.authorization="Bearer "+t;var p=fetch(r.url,{method:"POST",headers:h,body:r.body,priority:"high"});p.catch(function(){});l.push({url:r.url,body:r.body,authorization:h.authorization||null,response:p})})}catch(e){}})()</script>`;
}

function preloaded(): Preloaded[] | undefined {
  return typeof window === 'undefined' ? undefined : window[GLOBAL];
}

/**
 * The answer of a request the page started early when `url`, `body` and the Authorization header match it
 * exactly, taken once; otherwise null.
 */
export function takePreloaded(input: RequestInfo | URL, init?: RequestInit): Promise<Response> | null {
  const list = preloaded();
  if (!list?.length || typeof init?.body !== 'string') return null;
  const url = new URL(input instanceof Request ? input.url : input, window.location.href).href;
  const authorization = new Headers(init.headers).get('authorization');
  const at = list.findIndex(
    (p) =>
      p.body === init.body && p.authorization === authorization && new URL(p.url, window.location.href).href === url,
  );
  return at < 0 ? null : list.splice(at, 1)[0]!.response;
}

/** Forgets the requests nobody took (the page went elsewhere): a later read asks the server afresh. */
export function dropPreloaded(): void {
  preloaded()?.splice(0);
}

/** `fetch` for the API client: a request the page already started is answered by it. */
export const preloadingFetch: typeof fetch = (input, init) => takePreloaded(input, init) ?? fetch(input, init);
