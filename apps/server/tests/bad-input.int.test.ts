import {
  ADD_CONTEXT_ITEM,
  ADD_DEPENDENCY,
  type AnyDocument,
  type ApiErrorResult,
  CREATE_MAP,
  CREATE_NODE,
  DELETE_NODE,
  MAP,
  MOVE_NODE,
  NODE,
  POST_MESSAGE,
  type RootFieldOf,
  SET_CONCLUSION,
  UPDATE_NODE,
  type VariablesOf,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from './helpers/db-snapshot.ts';
import { addDependency, buildThreeLevelMap, createMap, createNode } from './helpers/map-builder.ts';
import { attempt, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;
const UNKNOWN_ID = 'c000000000000000000000000';

describe.each(providers)('bad input on %s', (provider) => {
  let server: TestServer;
  let client: ReturnType<TestServer['connect']>['client'];
  let mapId: string;
  let ids: Awaited<ReturnType<typeof buildThreeLevelMap>>;

  beforeAll(async () => {
    server = await startTestServer(provider);
    client = server.connect(server.alice.token).client;
    mapId = await createMap(client, 'Bad input target');
    ids = await buildThreeLevelMap(client, mapId);
  });
  afterAll(() => server?.close());

  /** Runs a refused operation and checks the typed error and that nothing changed. */
  async function expectRefused<D extends AnyDocument>(
    document: D,
    variables: VariablesOf<D>,
    expected: Partial<Extract<RootFieldOf<D>, ApiErrorResult>>,
  ) {
    const before = await snapshot(server.db);
    const result = await attempt(client, document, variables);
    expect(result, JSON.stringify(result)).toMatchObject(expected);
    expect(JSON.stringify(result)).not.toMatch(/\.ts:\d+|at async/);
    expect(await snapshot(server.db)).toBe(before);
  }

  it('should refuse empty and whitespace-only text', async () => {
    await expectRefused(
      CREATE_MAP,
      { input: { title: '' } },
      { __typename: 'ValidationError', field: 'title', reason: 'must not be empty' },
    );
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, parentId: ids.root, question: '   ' } },
      { __typename: 'ValidationError', field: 'question' },
    );
    await expectRefused(
      POST_MESSAGE,
      { input: { nodeId: ids.a, conversation: 'DECOMPOSE', content: '' } },
      { field: 'content' },
    );
    await expectRefused(SET_CONCLUSION, { input: { nodeId: ids.a, conclusion: ' ' } }, { field: 'conclusion' });
    await expectRefused(ADD_CONTEXT_ITEM, { nodeId: ids.a, content: '' }, { field: 'content' });
  });

  it('should refuse oversized text and lists, naming the limit', async () => {
    await expectRefused(
      CREATE_MAP,
      { input: { title: 'x'.repeat(201) } },
      { field: 'title', reason: 'must be at most 200 characters' },
    );
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, parentId: ids.root, question: '问'.repeat(1001) } },
      { field: 'question', reason: 'must be at most 1000 characters' },
    );
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, parentId: ids.root, question: 'ok', constraints: Array(21).fill('c') } },
      { field: 'constraints' },
    );
    await expectRefused(
      UPDATE_NODE,
      { input: { id: ids.a, expectedVersion: 1, goal: 'g'.repeat(2001) } },
      { field: 'goal' },
    );
    await expectRefused(
      POST_MESSAGE,
      { input: { nodeId: ids.a, conversation: 'CONCLUDE', content: 'm'.repeat(20_001) } },
      { field: 'content' },
    );
  });

  it('should tell a malformed id from an unknown one', async () => {
    await expectRefused(
      NODE,
      { id: 'not-an-id' },
      { __typename: 'ValidationError', field: 'id', reason: 'is not a valid id' },
    );
    await expectRefused(NODE, { id: UNKNOWN_ID }, { __typename: 'NotFoundError', entity: 'Node', id: UNKNOWN_ID });
    await expectRefused(MAP, { id: '\'; DROP TABLE "Node"; --' }, { __typename: 'ValidationError' });
    await expectRefused(
      CREATE_NODE,
      { input: { mapId: UNKNOWN_ID, question: 'orphan' } },
      { __typename: 'NotFoundError', entity: 'Map' },
    );
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, parentId: UNKNOWN_ID, question: 'orphan' } },
      { __typename: 'NotFoundError' },
    );
    await expectRefused(DELETE_NODE, { id: UNKNOWN_ID }, { __typename: 'NotFoundError' });
    await expectRefused(
      ADD_DEPENDENCY,
      { nodeId: ids.a, dependsOnId: 'bad' },
      { __typename: 'ValidationError', field: 'dependsOnId' },
    );
    await expectRefused(
      POST_MESSAGE,
      { input: { nodeId: ids.a, conversation: 'DECOMPOSE', content: 'hi', parentId: UNKNOWN_ID } },
      { __typename: 'NotFoundError', entity: 'Message' },
    );
  });

  it('should refuse a second root, self-dependencies, ancestors and nodes of other maps', async () => {
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, question: 'second root' } },
      { __typename: 'ValidationError', field: 'parentId' },
    );
    await expectRefused(
      ADD_DEPENDENCY,
      { nodeId: ids.a, dependsOnId: ids.a },
      { __typename: 'ValidationError', reason: 'a node cannot depend on itself' },
    );
    await expectRefused(
      ADD_DEPENDENCY,
      { nodeId: ids.a1, dependsOnId: ids.a },
      { __typename: 'ValidationError', field: 'dependsOnId' },
    );
    // A node of another map answers exactly as an unknown id: a reference never tells whether an id exists.
    const otherMap = await createMap(client, 'Other');
    const stranger = await createNode(client, otherMap, 'stranger');
    const bobsMap = await createMap(server.connect(server.bob.token).client, 'Bob');
    const bobsNode = await createNode(server.connect(server.bob.token).client, bobsMap, 'private');
    for (const foreign of [stranger.id, bobsNode.id, UNKNOWN_ID]) {
      await expectRefused(
        ADD_DEPENDENCY,
        { nodeId: ids.a, dependsOnId: foreign },
        { __typename: 'NotFoundError', entity: 'Node', id: foreign, message: `Node ${foreign} was not found` },
      );
      await expectRefused(
        MOVE_NODE,
        { input: { id: ids.a, parentId: foreign } },
        { __typename: 'NotFoundError', entity: 'Node', id: foreign, message: `Node ${foreign} was not found` },
      );
    }
  });

  it('should refuse a move under the node itself or its own descendant', async () => {
    await expectRefused(
      MOVE_NODE,
      { input: { id: ids.a, parentId: ids.a1 } },
      { __typename: 'ValidationError', reason: 'a node cannot be moved under itself or its own descendant' },
    );
    await expectRefused(MOVE_NODE, { input: { id: ids.a, parentId: ids.a } }, { __typename: 'ValidationError' });
    await expectRefused(MOVE_NODE, { input: { id: ids.root, parentId: ids.a } }, { __typename: 'ValidationError' });
    await addDependency(client, ids.b, ids.a);
    await expectRefused(MOVE_NODE, { input: { id: ids.b, parentId: ids.a1 } }, { __typename: 'ValidationError' });
  });

  it('should refuse the edge that closes a 60-node cycle and name all 61 steps', async () => {
    const chainMap = await createMap(client, 'Long chain');
    const root = await createNode(client, chainMap, 'root');
    const chain: string[] = [];
    for (let i = 0; i < 60; i++) chain.push((await createNode(client, chainMap, `step ${i}`, root.id)).id);
    for (let i = 0; i < 59; i++) await addDependency(client, String(chain[i]), String(chain[i + 1]));
    await expectRefused(ADD_DEPENDENCY, { nodeId: chain[59]!, dependsOnId: chain[0]! }, { __typename: 'CycleError' });
    const refused = await attempt(client, ADD_DEPENDENCY, { nodeId: chain[59]!, dependsOnId: chain[0]! });
    expect(refused).toMatchObject({ __typename: 'CycleError', path: [chain[59], ...chain] });
  });

  it('should answer a wrong argument type with a GraphQL validation error and change nothing', async () => {
    const before = await snapshot(server.db);
    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.alice.token}` },
      body: JSON.stringify({ query: 'mutation { createNode(input: { mapId: 5, question: 7 }) { __typename } }' }),
    });
    const body = await response.json();
    expect(body.errors[0].message).toMatch(/String/);
    expect(await snapshot(server.db)).toBe(before);
  });
});
