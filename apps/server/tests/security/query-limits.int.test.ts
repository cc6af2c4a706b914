import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../helpers/db-snapshot.ts';
import { postGraphQL, send } from '../helpers/http-request.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = await testProviders();

/** `levels` times `map { nodes { … } }` below a map: the query that ran for minutes on a 70-node map. */
function nestedMaps(mapId: string, levels: number): string {
  let selection = 'nodes { id question }';
  for (let i = 1; i < levels; i++) selection = `nodes { id map { ${selection} } }`;
  return `{ map(id: "${mapId}") { ... on Map { ${selection} } } }`;
}

/** A 1.4 KB fragment bomb: each fragment spreads the one below it in several places, doubling at every level. */
function fragmentBomb(mapId: string): string {
  const fragments = ['fragment F0 on Node { id question goal conclusion status }'];
  for (let i = 1; i <= 9; i++) {
    fragments.push(
      `fragment F${i} on Node { children { ...F${i - 1} } parent { ...F${i - 1} } map { nodes { ...F${i - 1} } } }`,
    );
  }
  return `{ map(id: "${mapId}") { ... on Map { nodes { ...F9 } } } }\n${fragments.join('\n')}`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe.each(providers)('query limits on %s', (provider) => {
  let server: TestServer;
  let token: string;
  let mapId: string;
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    server = await startTestServer(provider);
    token = server.alice.token;
    const { client } = server.connect(token);
    mapId = await createMap(client, 'Seventy nodes');
    const root = await createNode(client, mapId, 'root');
    const parents = [root.id];
    for (let i = 1; i < 70; i++) {
      const node = await createNode(client, mapId, `question ${i}`, parents[Math.floor((i - 1) / 3)]);
      parents.push(node.id);
    }
  });
  afterAll(() => server?.close());

  /** Median latency of a small query from another client, measured sequentially. */
  async function smallQueryLatency(count = 15): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await postGraphQL(server.endpoint, `{ map(id: "${mapId}") { ... on Map { id title } } }`, {
        authorization: `Bearer ${server.bob.token}`,
      });
      expect(response.status).toBe(200);
      samples.push(performance.now() - started);
    }
    return median(samples);
  }

  /**
   * Sends `attack` from four clients in a loop while another client measures a small query: the attack must be
   * refused with the message given, and the small query stay within a generous factor of its latency without it.
   */
  async function expectRefusedWhileOthersAreServed(
    attack: () => Promise<{ status: number; body: string }>,
    refusal: RegExp,
  ) {
    const before = await snapshot(server.db);
    const quiet = await smallQueryLatency();
    let stop = false;
    const bodies: string[] = [];
    const attackers = Array.from({ length: 4 }, async () => {
      while (!stop) bodies.push((await attack()).body);
    });
    await new Promise<void>((resolve) => {
      const check = () => (bodies.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    const loaded = await smallQueryLatency();
    stop = true;
    await Promise.all(attackers);
    expect(bodies[0]).toMatch(refusal);
    expect(bodies.every((body) => !body.includes('"data":{"map"'))).toBe(true);
    expect(loaded).toBeLessThan(Math.max(quiet, 1) * 50);
    expect(await snapshot(server.db)).toBe(before);
  }

  it('should refuse maps nested in their nodes four levels deep, naming the depth limit', async () => {
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, nestedMaps(mapId, 4), auth()),
      /(depth|Cost) limit of \d+ exceeded, found \d+/,
    );
  });

  it('should refuse a 1.4 KB fragment bomb', async () => {
    const bomb = fragmentBomb(mapId);
    expect(bomb.length).toBeLessThan(1_500);
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, bomb, auth()),
      /(depth|Cost) limit of \d+ exceeded/,
    );
  });

  it('should refuse a list nested in a list of the same map by its cost, however shallow', async () => {
    const query = `{ map(id: "${mapId}") { ... on Map { nodes { map { nodes { id } } } } } }`;
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, query, auth()),
      /Query complexity limit of 5000 exceeded, found 10202/,
    );
  });

  it('should refuse too many aliases, directives and tokens, naming each limit', async () => {
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`;
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, aliases, auth()),
      /Aliases limit of 15 exceeded, found 16/,
    );
    const directives = `{ viewer { id ${Array.from({ length: 51 }, () => '@include(if: true)').join(' ')} } }`;
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, directives, auth()),
      /Directives limit of 50 exceeded, found 51/,
    );
    const tokens = `{ viewer { ${Array.from({ length: 1001 }, () => 'id').join(' ')} } }`;
    await expectRefusedWhileOthersAreServed(
      () => postGraphQL(server.endpoint, tokens, auth()),
      /Token limit of 1000 exceeded/,
    );
  });

  it('should refuse a body over 1 MB before reading it, declared or chunked', async () => {
    const huge = JSON.stringify({ query: `{ viewer { id } } # ${'x'.repeat(1024 * 1024)}` });
    await expectRefusedWhileOthersAreServed(
      () =>
        send(server.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth() },
          body: huge,
        }),
      /Request body limit of 1048576 bytes exceeded/,
    );
    const chunked = await send(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...auth() },
      body: huge,
    });
    expect(chunked.status).toBe(413);
  });

  it('should still answer the workspace its whole map', async () => {
    const response = await postGraphQL(
      server.endpoint,
      `{ map(id: "${mapId}") { ... on Map { nodes { id question goal status parentId dependencies { dependsOnId } } } } }`,
      auth(),
    );
    expect(JSON.parse(response.body).data.map.nodes).toHaveLength(70);
  });
});
