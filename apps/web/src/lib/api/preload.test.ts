// @vitest-environment jsdom
import { createThinkingMapClient } from '@thinkingmap/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadWorkspace, workspaceRequests } from '../map/load-workspace.ts';
import { dropPreloaded, preloadingFetch, preloadScript, TOKEN_KEY } from './preload.ts';

/** A server that answers every read with "not found" and records what it was sent. */
function fakeServer() {
  const seen: { url: string; body: string; headers: Headers }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), body: String(init?.body), headers: new Headers(init?.headers) });
    const root = String(init?.body).includes('"WorkspaceMap"') ? 'map' : 'runs';
    const data = { [root]: { __typename: 'NotFoundError', code: 'NOT_FOUND', message: `answer ${seen.length}` } };
    return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
  });
  return { fetch, seen };
}

/** Runs the inline script as the page's `<head>` would. */
function runScript(html: string) {
  new Function(html.replace(/^<script>|<\/script>$/g, ''))();
}

const url = () => `${window.location.origin}/graphql`;

describe('the workspace reads started by the page before its code loads', () => {
  afterEach(() => {
    dropPreloaded();
    window.localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('should be the very requests urql sends for the workspace', async () => {
    const server = fakeServer();
    const { client } = createThinkingMapClient({ url: url(), fetch: server.fetch });
    await loadWorkspace(client, 'cmap00000000000000000000001');
    const expected = workspaceRequests('cmap00000000000000000000001');
    expect(server.seen.map((r) => r.body).sort()).toEqual(expected.map((r) => r.body).sort());
    for (const request of server.seen) {
      const same = expected.find((r) => r.body === request.body)!;
      expect(new URL(same.url, window.location.href).href).toBe(request.url);
      for (const [name, value] of Object.entries(same.headers)) expect(request.headers.get(name)).toBe(value);
    }
  });

  it('should answer the workspace load from the requests the page started, with the same token, once', async () => {
    const server = fakeServer();
    vi.stubGlobal('fetch', server.fetch);
    window.localStorage.setItem(TOKEN_KEY, 'tm_secret');
    runScript(preloadScript(workspaceRequests('cmap00000000000000000000001')));
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(server.seen.every((r) => r.headers.get('authorization') === 'Bearer tm_secret')).toBe(true);

    const { client } = createThinkingMapClient({ url: url(), token: 'tm_secret', fetch: preloadingFetch });
    const first = await loadWorkspace(client, 'cmap00000000000000000000001');
    // Nothing asked again: the answers are the page's.
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(first.map).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    // Taken once: the next load asks the server.
    await loadWorkspace(client, 'cmap00000000000000000000001');
    expect(server.fetch).toHaveBeenCalledTimes(6);
  });

  it('should not hand an answer to another token, another map or after the first page', async () => {
    const server = fakeServer();
    vi.stubGlobal('fetch', server.fetch);
    window.localStorage.setItem(TOKEN_KEY, 'tm_one');
    runScript(preloadScript(workspaceRequests('cmap00000000000000000000001')));
    const other = createThinkingMapClient({ url: url(), token: 'tm_two', fetch: preloadingFetch }).client;
    await loadWorkspace(other, 'cmap00000000000000000000001');
    expect(server.fetch).toHaveBeenCalledTimes(6);
    const same = createThinkingMapClient({ url: url(), token: 'tm_one', fetch: preloadingFetch }).client;
    await loadWorkspace(same, 'cmap00000000000000000000002');
    expect(server.fetch).toHaveBeenCalledTimes(9);
    dropPreloaded();
    await loadWorkspace(same, 'cmap00000000000000000000001');
    expect(server.fetch).toHaveBeenCalledTimes(12);
  });
});
