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

describe.each(providers)('subscriptions over graphql-ws when their token ends, on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  /** Subscribes over graphql-ws with a new token of Alice's, sees one event, ends the token, returns what came. */
  async function watchUntilTokenEnds(expiresAt: Date | null, end: (tokenId: string) => Promise<unknown>) {
    const alice = server.connect(server.alice.token);
    const mapId = await createMap(alice.client, 'Watched by a wall screen');
    const { token, row } = await issueToken(server.db, server.alice.id, { expiresAt });
    const subscriber = openSubscriber('graphql-ws', server.endpoint, token);
    try {
      const events = subscriber.subscribe({ query: MAP_EVENTS, variables: { mapId } });
      // The WebSocket and its subscription.
      await expect.poll(() => server.app.revocations.openCount(row.id)).toBe(2);
      await createNode(alice.client, mapId, 'seen while the token works');
      await events.waitFor(1);
      await end(row.id);
      // The subscription sent its last error and the socket was closed (nothing is open with the token).
      await expect.poll(() => events.errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
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

  it('should end the subscription with a typed error, then close the socket, when its token expires', async () => {
    const expiresAt = new Date(Date.now() + 3_000);
    const { errors, results } = await watchUntilTokenEnds(expiresAt, async () => {});
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(errors[0]).toEqual(typedEnd('EXPIRED'));
    expect(results).toHaveLength(1);
  });

  it('should end the subscription with a typed error, then close the socket, when its token is revoked', async () => {
    const alice = server.connect(server.alice.token);
    const { errors } = await watchUntilTokenEnds(null, (id) => call(alice.client, REVOKE_API_TOKEN, { id }));
    expect(errors[0]).toEqual(typedEnd('REVOKED'));
  });
});
