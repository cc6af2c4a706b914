import { logicProviders } from '@thinkingmap/db/testing';
import { gql } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMap, createNode } from './helpers/map-builder.ts';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

const CREATE_CHILD_WITH_RELATIONS = gql`
  mutation CreateChildWithRelations($input: CreateNodeInput!) {
    createNode(input: $input) {
      __typename
      ... on Node {
        question
        map {
          title
        }
        parent {
          question
          children {
            question
          }
        }
        contextItems {
          id
        }
      }
    }
  }
`;

const ADD_DEPENDENCY_WITH_RELATIONS = gql`
  mutation AddDependencyWithRelations($nodeId: ID!, $dependsOnId: ID!) {
    addDependency(nodeId: $nodeId, dependsOnId: $dependsOnId) {
      __typename
      ... on Dependency {
        node {
          question
        }
        dependsOn {
          question
        }
      }
    }
  }
`;

describe.each(providers)('relations selected on a mutation result on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterAll(() => server?.close());

  it("should answer the relations of the row a mutation's command wrote", async () => {
    const { client } = server.connect(server.alice.token);
    const mapId = await createMap(client, 'Relations');
    const root = await createNode(client, mapId, 'root');
    const child = await call(client, CREATE_CHILD_WITH_RELATIONS, {
      input: { mapId, parentId: root.id, question: 'a' },
    });
    expect(child).toEqual({
      __typename: 'Node',
      question: 'a',
      map: { title: 'Relations' },
      parent: { question: 'root', children: [{ question: 'a' }] },
      contextItems: [],
    });
    const other = await createNode(client, mapId, 'b', root.id);
    const dependency = await call(client, ADD_DEPENDENCY_WITH_RELATIONS, {
      nodeId: other.id,
      dependsOnId: (await createNode(client, mapId, 'c', root.id)).id,
    });
    expect(dependency).toEqual({ __typename: 'Dependency', node: { question: 'b' }, dependsOn: { question: 'c' } });
  });
});
