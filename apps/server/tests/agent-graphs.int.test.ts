import { agentGraphTopologies } from '@thinkingmap/agent-core';
import { AGENT_GRAPHS, graphql } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

const [provider] = logicProviders;

describe('agentGraphs', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer(provider!);
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server.close());

  it('should return the topology of every compiled agent graph', async () => {
    const graphs = await call(client, AGENT_GRAPHS);
    expect(graphs.map((g) => g.name).sort()).toEqual([
      'consultation',
      'critic',
      'divergent',
      'process-node',
      'understand-problem',
    ]);
    expect(graphs).toEqual(await agentGraphTopologies());
    const critic = graphs.find((g) => g.name === 'critic')!;
    expect(critic.nodes).toContainEqual({ id: 'reviewScope', kind: 'AGENT', interrupt: false });
    expect(critic.edges).toContainEqual({
      source: 'reviewScope',
      target: '__end__',
      conditional: true,
      label: 'nothing',
    });
    const processNode = graphs.find((g) => g.name === 'process-node')!;
    expect(processNode.nodes).toContainEqual({ id: 'reviewProposal', kind: 'HUMAN', interrupt: true });
    expect(processNode.nodes).toContainEqual({ id: 'recognizeIntent', kind: 'AGENT', interrupt: false });
    expect(processNode.edges).toContainEqual({
      source: 'reviewConclusion',
      target: 'draftConclusion',
      conditional: true,
      label: 'feedback',
    });
  });

  it('should answer a query written by hand with aliases', async () => {
    const ALIASED = graphql(`
      query Drawn {
        graphs: agentGraphs {
          graph: name
          humans: interruptPoints
          steps: nodes {
            step: id
            kind
          }
        }
      }
    `);
    const graphs = await call(client, ALIASED);
    const understand = graphs.find((g) => g.graph === 'understand-problem')!;
    expect(understand.humans).toEqual(['askConfirmation']);
    expect(understand.steps.map((s) => s.step)).toEqual(
      expect.arrayContaining(['__start__', 'restateProblem', 'askConfirmation', 'createRootNode', '__end__']),
    );
  });
});
