import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MapReadRequests } from './map-read-request.ts';

const READ = 'query R($m: ID!) { map(id: $m) { ... on Map { lastSeq } } }';

/** A GET of GraphQL over HTTP as the server receives it. */
const get = (query: string, variables: object) =>
  ({
    method: 'GET',
    url: `/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`,
    headers: {},
  }) as IncomingMessage;

/** A POST with a JSON body, and that body. */
const post = (query: string, variables: object): [IncomingMessage, Buffer] => [
  { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' } } as IncomingMessage,
  Buffer.from(JSON.stringify({ query, variables })),
];

describe('map read requests', () => {
  it('should tell requests sent in turn apart, each as its own map read or as none', () => {
    const requests = new MapReadRequests();
    const first = get(READ, { m: 'a' });
    const second = get(READ, { m: 'b' });
    const mutation = get('mutation { deleteMap(id: "a") { __typename } }', {});
    for (let turn = 0; turn < 3; turn++) {
      expect(requests.of(first, undefined)?.mapId).toBe('a');
      expect(requests.of(first, undefined)?.mapId).toBe('a');
      expect(requests.of(second, undefined)?.mapId).toBe('b');
      expect(requests.of(mutation, undefined)).toBeNull();
    }
    expect(requests.of(first, undefined)?.key).not.toBe(requests.of(second, undefined)?.key);
  });

  it('should give a read sent by GET and by POST the same key, and a POST of another map its own', () => {
    const requests = new MapReadRequests();
    const byGet = requests.of(get(READ, { m: 'a' }), undefined);
    const byPost = requests.of(...post(READ, { m: 'a' }));
    const other = requests.of(...post(READ, { m: 'b' }));
    expect(byPost).toMatchObject({ mapId: 'a', key: byGet?.key });
    expect(other?.mapId).toBe('b');
    expect(requests.of(...post(READ, { m: 'a' }))?.mapId).toBe('a');
  });
});
