import { NODE, UPDATE_NODE } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDependency, createMap, createNode } from './helpers/map-builder.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = await testProviders();
const ROUNDS = 12;

/** The `__typename`s of results, sorted, so a race's outcome compares regardless of who won. */
const outcome = (results: Record<string, unknown>[]) => results.map((r) => String(r.__typename)).sort();

describe.each(providers)('commands racing on one map on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  it('should accept exactly one of two edits based on the same version, and keep the winner’s text', async () => {
    const [one, two] = [server.connect(server.alice.token).client, server.connect(server.alice.token).client];
    const mapId = await createMap(one, 'Racing edits');
    const root = await createNode(one, mapId, 'root');
    for (let round = 0; round < ROUNDS; round++) {
      const node = await createNode(one, mapId, `Question ${round}`, root.id);
      const results = await Promise.all(
        [one, two].map((client, i) =>
          attempt(client, UPDATE_NODE, { input: { id: node.id, expectedVersion: node.version, goal: `window ${i}` } }),
        ),
      );
      expect(outcome(results)).toEqual(['Node', 'VersionConflictError']);
      const winner = results.find((r) => r.__typename === 'Node');
      const stored = await call(one, NODE, { id: node.id });
      expect(stored).toMatchObject({ version: node.version + 1, goal: winner?.goal });
    }
  });

  it('should add exactly one of two opposite dependencies added at once, refusing the other as a cycle', async () => {
    const [one, two] = [server.connect(server.alice.token).client, server.connect(server.alice.token).client];
    const mapId = await createMap(one, 'Racing dependencies');
    const root = await createNode(one, mapId, 'root');
    for (let round = 0; round < ROUNDS; round++) {
      const a = await createNode(one, mapId, `A${round}`, root.id);
      const b = await createNode(one, mapId, `B${round}`, root.id);
      const results = await Promise.all([addDependency(one, a.id, b.id), addDependency(two, b.id, a.id)]);
      expect(outcome(results)).toEqual(['CycleError', 'Dependency']);
      const [storedA, storedB] = await Promise.all([call(one, NODE, { id: a.id }), call(one, NODE, { id: b.id })]);
      expect(storedA.dependencies.length + storedB.dependencies.length).toBe(1);
    }
  });
});
