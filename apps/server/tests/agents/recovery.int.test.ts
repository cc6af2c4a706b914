import { CREATE_MAP, CREATE_NODE } from '@thinkingmap/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/agent-driver.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

describe('runs left mid-step by a process that died', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server?.close());

  /** A RUNNING run on a fresh node whose lease was last refreshed `ageMs` ago, as a dead process leaves it. */
  async function runLeftRunning(ageMs: number) {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Crash' } });
    const node = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'What was I doing?' } });
    const id = crypto.randomUUID();
    return server.db.prisma.agentRun.create({
      data: {
        id,
        mapId: map.id,
        nodeId: node.id,
        agent: 'process-node',
        threadId: id,
        status: 'RUNNING',
        input: { nodeId: node.id },
        updatedAt: new Date(Date.now() - ageMs),
      },
    });
  }

  it('should resume a run whose lease ran out, and leave one that another process still drives', async () => {
    const abandoned = await runLeftRunning(10 * 60_000);
    const driven = await runLeftRunning(1_000);
    const resumed = await server.app.runs.recover(server.db);
    expect(resumed).toBe(1);
    const settled = await eventually(async () => {
      const run = await server.db.prisma.agentRun.findUniqueOrThrow({ where: { id: abandoned.id } });
      return run.status !== 'RUNNING' ? run : null;
    }, 'the abandoned run to be driven again');
    // Driven from the start by this process: the offline model's run pauses at its first question for the person.
    expect(settled).toMatchObject({ status: 'WAITING', error: null });
    expect(await server.db.prisma.agentQuestion.count({ where: { runId: abandoned.id, status: 'PENDING' } })).toBe(1);
    expect((await server.db.prisma.agentRun.findUniqueOrThrow({ where: { id: driven.id } })).status).toBe('RUNNING');
    // A second process sweeping at the same moment finds nothing left to claim.
    expect(await server.app.runs.recover(server.db)).toBe(0);
  });
});
