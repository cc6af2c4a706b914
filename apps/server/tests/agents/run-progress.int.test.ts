import { PENDING_QUESTIONS, POST_MESSAGE, PROCESS_NODE, REPLY_TO_AGENT, RUNS, UPDATE_MAP } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/commands/event-log.ts';
import type { MapEvent } from '../../src/commands/map-event.ts';
import { eventually } from '../helpers/agent-driver.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;
const SIBLINGS = 5;

/** The steps a CONCLUDE run goes through, paused once for the person's review of its draft. */
const STEPS = [
  'collectContext ENTERED',
  'collectContext LEFT done',
  'checkDependencies ENTERED',
  'checkDependencies LEFT done',
  'recognizeIntent ENTERED',
  'recognizeIntent LEFT done',
  'draftConclusion ENTERED',
  'draftConclusion LEFT done',
  'reviewConclusion ENTERED',
  'reviewConclusion LEFT interrupted',
  'reviewConclusion ENTERED',
  'reviewConclusion LEFT done',
  'saveConclusion ENTERED',
  'saveConclusion LEFT done',
];

/** One line per event of a run or its node: what the ordering assertions read. */
function lineOf(event: MapEvent, runId: string, nodeId: string): string | null {
  switch (event.type) {
    case 'RunStarted':
    case 'RunFinished':
    case 'RunFailed':
      return event.payload.run.id === runId ? event.type : null;
    case 'AgentStep': {
      const { payload: p } = event;
      return p.runId === runId ? `${p.step} ${p.phase}${p.outcome ? ` ${p.outcome}` : ''}` : null;
    }
    case 'AgentQuestion':
    case 'QuestionResolved':
      return event.payload.question.runId === runId ? event.type : null;
    case 'NodeUpdated':
      return event.payload.node.id === nodeId ? `NodeUpdated ${event.payload.fields.join(',')}` : null;
    case 'NodeConcluded':
      return event.payload.node.id === nodeId ? 'NodeConcluded' : null;
    case 'MessagePosted':
      return event.payload.nodeId === nodeId ? 'MessagePosted' : null;
    default:
      return null;
  }
}

const before = (lines: string[], a: string, b: string) => {
  expect(lines, `${a} in ${lines.join(' | ')}`).toContain(a);
  expect(lines.indexOf(a), `${a} before ${b}: ${lines.join(' | ')}`).toBeLessThan(lines.indexOf(b));
};

describe.each(providers)('runs recording progress beside other commands on %s', (provider) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(provider, { runSettings: { questionTtlMs: 60_000, checkpointWindow: 0 } });
  });
  afterAll(() => server?.close());

  it('should sequence every run event and status consecutively with the person’s commands, in the order it happened', async () => {
    const { client } = server.connect(server.alice.token);
    const person = server.connect(server.alice.token).client;
    const mapId = await createMap(client, 'Busy map');
    await call(client, UPDATE_MAP, { input: { id: mapId, autoRun: false } });
    const root = await createNode(client, mapId, 'How do we grow?');
    const leaves = [];
    for (let i = 0; i < SIBLINGS; i++) leaves.push(await createNode(client, mapId, `Channel ${i + 1}?`, root.id));
    const talk = (round: number) =>
      Array.from({ length: 6 }, (_, i) =>
        call(person, POST_MESSAGE, {
          input: { nodeId: root.id, conversation: 'DECOMPOSE', content: `note ${round}.${i}` },
        }),
      );

    const [runs] = await Promise.all([
      Promise.all(leaves.map((leaf) => call(client, PROCESS_NODE, { nodeId: leaf.id, intent: 'CONCLUDE' }))),
      ...talk(1),
    ]);
    const questions = await eventually(async () => {
      const pending = (await call(client, PENDING_QUESTIONS, { mapId })).data as { requestId: string }[];
      return pending.length === SIBLINGS ? pending : null;
    }, 'every sibling to wait for its review');
    await Promise.all([
      ...questions.map((q) => call(client, REPLY_TO_AGENT, { input: { requestId: q.requestId, accept: true } })),
      ...talk(2),
    ]);
    await eventually(async () => {
      const list = (await call(client, RUNS, { mapId })).data as { status: string }[];
      return list.every((r) => r.status === 'COMPLETED');
    }, 'every run to complete');
    await server.app.engine.idle();

    const log = await readEvents(server.db.read, mapId, 0, 10_000);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((e) => e.type === 'MessagePosted' && e.payload.nodeId === root.id)).toHaveLength(12);
    for (const [i, run] of runs.entries()) {
      const nodeId = leaves[i]!.id;
      const lines = log.flatMap((event) => lineOf(event, run.id, nodeId) ?? []);
      expect(lines.filter((l) => l.includes(' ENTERED') || l.includes(' LEFT'))).toEqual(STEPS);
      expect(lines[0]).toBe('RunStarted');
      expect(lines.at(-1)).toBe('RunFinished');
      // The agent's state on its node lands after the step that set it and before what followed.
      before(lines, 'collectContext ENTERED', 'NodeUpdated status');
      before(lines, 'NodeUpdated status', 'recognizeIntent LEFT done');
      before(lines, 'NodeUpdated intent', 'draftConclusion LEFT done');
      // What a step writes is sequenced inside the step, and the question after the pause that asked it.
      before(lines, 'draftConclusion ENTERED', 'MessagePosted');
      before(lines, 'MessagePosted', 'draftConclusion LEFT done');
      before(lines, 'reviewConclusion LEFT interrupted', 'AgentQuestion');
      before(lines, 'AgentQuestion', 'QuestionResolved');
      before(lines, 'saveConclusion ENTERED', 'NodeConcluded');
      before(lines, 'NodeConcluded', 'saveConclusion LEFT done');
    }
    // With no checkpoint window, ended runs keep no checkpoint (the window: checkpoint-window.int.test.ts).
    const threads = await server.db.read.agentRun.findMany({ where: { mapId }, select: { threadId: true } });
    expect(await server.db.read.checkpoint.count({ where: { threadId: { in: threads.map((t) => t.threadId) } } })).toBe(
      0,
    );
  });
});
