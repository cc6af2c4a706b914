import { REVOKE_API_TOKEN } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_ENDED } from '../../src/auth/revocable-subscriptions.ts';
import type { TokenEnd } from '../../src/auth/token-revocations.ts';
import { issueToken } from '../../src/auth/tokens.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { openSubscriber } from '../helpers/subscription-transports.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = await testProviders();

const MAP_EVENTS = 'subscription ($mapId: ID!) { mapEvents(mapId: $mapId) { __typename } }';
/** The viewer-wide feed, here over the one map (a dashboard's wall screen). */
const VIEWER_EVENTS = 'subscription ($mapId: ID!) { viewerEvents(mapIds: [$mapId]) { cursor } }';

describe.each(providers)('subscriptions over graphql-ws when their token ends, on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  /**
   * Subscribes over graphql-ws to `query` (of `$mapId`) with a new token of Alice's, sees one event, ends the
   * token, returns what came.
   */
  async function watchUntilTokenEnds(
    expiresAt: Date | null,
    end: (tokenId: string) => Promise<unknown>,
    query = MAP_EVENTS,
  ) {
    const alice = server.connect(server.alice.token);
    const mapId = await createMap(alice.client, 'Watched by a wall screen');
    const { token, row } = await issueToken(server.db, server.alice.id, { expiresAt });
    const subscriber = openSubscriber('graphql-ws', server.endpoint, token);
    try {
      const events = subscriber.subscribe({ query, variables: { mapId } });
      // The WebSocket and its subscription.
      await expect.poll(() => server.app.revocations.openCount(row.id), { timeout: 5_000 }).toBe(2);
      await createNode(alice.client, mapId, 'seen while the token works');
      await events.waitFor(1);
      await end(row.id);
      // The subscription sent its last error and completed, then the socket was closed (nothing is open with
      // the token, and the close cut nothing off: no error of its own).
      await events.waitForCompletion(10_000);
      await expect.poll(() => server.app.revocations.openCount(row.id), { timeout: 10_000 }).toBe(0);
      return { errors: events.errors, results: events.results };
    } finally {
      subscriber.dispose();
    }
  }

  const typedEnd = (reason: TokenEnd) => ({
    message: TOKEN_ENDED[reason],
    extensions: { code: 'UNAUTHENTICATED', reason },
  });

  it('should end the subscription with a typed error and complete it, then close the socket, when its token expires', async () => {
    // Long enough for the subscription and its first event on a loaded machine, before the token runs out.
    const expiresAt = new Date(Date.now() + 5_000);
    const { errors, results } = await watchUntilTokenEnds(expiresAt, async () => {});
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(errors).toEqual([typedEnd('EXPIRED')]);
    expect(results).toHaveLength(1);
  });

  it('should end the subscription with a typed error and complete it, then close the socket, when its token is revoked', async () => {
    const alice = server.connect(server.alice.token);
    const { errors } = await watchUntilTokenEnds(null, (id) => call(alice.client, REVOKE_API_TOKEN, { id }));
    expect(errors).toEqual([typedEnd('REVOKED')]);
  });

  it('should end a viewerEvents subscription with a typed error and complete it, then close the socket, when its token is revoked', async () => {
    const alice = server.connect(server.alice.token);
    const { errors, results } = await watchUntilTokenEnds(
      null,
      (id) => call(alice.client, REVOKE_API_TOKEN, { id }),
      VIEWER_EVENTS,
    );
    expect(errors).toEqual([typedEnd('REVOKED')]);
    expect(results).toHaveLength(1);
  });
});
