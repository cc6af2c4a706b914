import { MAP_EVENTS, VIEWER } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMap, createNode } from './helpers/map-builder.ts';
import { openSubscriber, type SubscriptionRequest, TRANSPORTS } from './helpers/subscription-transports.ts';
import { raw, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

/** How a client author may write "the events of map `mapId` after seq `after`", and where the event lands. */
interface Form {
  request(mapId: string, after: number): SubscriptionRequest;
  /** The response key the event is under (an alias renames it). */
  key: string;
  /** What of each event the test compares (everything the form selected when omitted). */
  view?: (event: Record<string, unknown>) => unknown;
}

const EVENT = '__typename ... on SequencedEvent { seq }';

/** Every valid way of writing the subscription (the list), each with a replay through `after`. */
const FORMS: Record<string, Form> = {
  'our own typed document': {
    key: 'mapEvents',
    view: ({ __typename, seq }) => ({ __typename, seq }),
    request: (mapId, after) => ({ query: print(MAP_EVENTS), variables: { mapId, after } }),
  },
  'literal arguments': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription { mapEvents(mapId: "${mapId}", after: ${after}) { ${EVENT} } }`,
    }),
  },
  'variables of other names': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription Feed($m: ID!, $from: Int) { mapEvents(mapId: $m, after: $from) { ${EVENT} } }`,
      variables: { m: mapId, from: after },
    }),
  },
  'default values': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription Feed($m: ID! = "${mapId}", $from: Int = ${after}) { mapEvents(mapId: $m, after: $from) { ${EVENT} } }`,
    }),
  },
  'an alias': {
    key: 'feed',
    request: (mapId, after) => ({
      query: `subscription Feed($mapId: ID!, $after: Int) { feed: mapEvents(mapId: $mapId, after: $after) { ${EVENT} } }`,
      variables: { mapId, after },
    }),
  },
  'named fragments': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription Feed($id: ID!, $a: Int) { ...Stream }
        fragment Stream on Subscription { mapEvents(mapId: $id, after: $a) { ...Seq } }
        fragment Seq on MapEvent { __typename ... on SequencedEvent { seq } }`,
      variables: { id: mapId, a: after },
    }),
  },
  'inline fragments': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription { ... on Subscription { mapEvents(mapId: "${mapId}", after: ${after}) { ... { __typename } ... on NodeCreated { seq } } } }`,
    }),
  },
  '@include and @skip': {
    key: 'mapEvents',
    request: (mapId, after) => ({
      query: `subscription Feed($mapId: ID!, $after: Int, $yes: Boolean!) {
        mapEvents(mapId: $mapId, after: $after) {
          __typename ... on SequencedEvent { seq @include(if: $yes) mapId @skip(if: $yes) at @include(if: false) }
          skipped: __typename @skip(if: true)
        }
      }`,
      variables: { mapId, after, yes: true },
    }),
  },
  'several operations with operationName': {
    key: 'chosen',
    request: (mapId, after) => ({
      query: `query Viewer { viewer { id } }
        subscription Everything { mapEvents(mapId: "${mapId}", after: 0) { __typename } }
        subscription Chosen($x: ID!, $y: Int) { chosen: mapEvents(mapId: $x, after: $y) { ${EVENT} } }`,
      variables: { x: mapId, y: after },
      operationName: 'Chosen',
    }),
  },
};

describe.each(providers)('subscriptions written in any valid form on %s', (provider) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  describe.each(TRANSPORTS)('over %s', (transport) => {
    it.each(Object.entries(FORMS))(
      'should replay after `after` and then deliver live events when written with %s',
      async (_name, form) => {
        const { client } = server.connect(server.alice.token);
        const mapId = await createMap(client);
        const root = await createNode(client, mapId, 'root');
        await createNode(client, mapId, 'missed 1', root.id);
        await createNode(client, mapId, 'missed 2', root.id);
        const subscriber = openSubscriber(transport, server.endpoint, server.alice.token);
        try {
          // seq 1 is MapCreated, 2 the root: after 2 the two missed nodes are replayed, then a live one follows.
          const sub = subscriber.subscribe(form.request(mapId, 2));
          const replayed = await sub.waitFor(2);
          await createNode(client, mapId, 'live', root.id);
          const results = await sub.waitFor(3);
          expect(results.every((result) => Object.keys(result).join() === form.key)).toBe(true);
          const view = form.view ?? ((event) => event);
          expect(results.map((result) => view(result[form.key] as Record<string, unknown>))).toEqual([
            { __typename: 'NodeCreated', seq: 3 },
            { __typename: 'NodeCreated', seq: 4 },
            { __typename: 'NodeCreated', seq: 5 },
          ]);
          expect(replayed).toEqual(results.slice(0, 2));
          sub.stop();
        } finally {
          subscriber.dispose();
        }
      },
    );

    it('should refuse a malformed id and another viewer’s map with a clear error', async () => {
      const { client } = server.connect(server.alice.token);
      const mapId = await createMap(client, 'Alice’s own');
      const subscriber = openSubscriber(transport, server.endpoint, server.bob.token);
      try {
        const malformed = subscriber.subscribe({
          query: 'subscription { mapEvents(mapId: "not an id!") { __typename } }',
        });
        await expect(malformed.waitFor(1)).rejects.toThrow(/mapId: is not a valid id/);
        const forbidden = subscriber.subscribe({
          query: 'subscription Feed($id: ID!) { feed: mapEvents(mapId: $id, after: 0) { __typename } }',
          variables: { id: mapId },
        });
        await expect(forbidden.waitFor(1)).rejects.toThrow(/FORBIDDEN/);
      } finally {
        subscriber.dispose();
      }
    });
  });

  it('should run the operation a query names among several, each time (compiled queries included)', async () => {
    const { client } = server.connect(server.alice.token);
    const mapId = await createMap(client, 'Two operations');
    const query = `query First { viewer { id } } query Second($id: ID!) { map(id: $id) { ... on Map { title } } }`;
    for (let i = 0; i < 3; i++) {
      const first = await fetchGraphQL(server, { query, operationName: 'First' });
      expect(first).toEqual({ data: { viewer: { id: server.alice.id } } });
      const second = await fetchGraphQL(server, { query, operationName: 'Second', variables: { id: mapId } });
      expect(second).toEqual({ data: { map: { title: 'Two operations' } } });
    }
    // A single-operation query through the typed client as before.
    expect((await raw(client, VIEWER)).data?.viewer.id).toBe(server.alice.id);
  });
});

/** Posts a GraphQL request as any HTTP client would, acting as Alice. */
async function fetchGraphQL(server: TestServer, body: SubscriptionRequest) {
  const response = await fetch(server.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.alice.token}` },
    body: JSON.stringify(body),
  });
  return response.json();
}
