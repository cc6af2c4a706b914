import {
  ADD_DEPENDENCY,
  CANCEL_RUN,
  CREATE_MAP,
  CREATE_NODE,
  EVENTS,
  graphql,
  NODE,
  PROCESS_NODE,
  REMOVE_DEPENDENCY,
  REPLY_TO_AGENT,
  RUNS,
  SET_CONCLUSION,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion, waitForRun } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

/** The run's decisions, read with a literal argument and aliases, as another client would. */
const RUN_DECISIONS = graphql(`
  query RunDecisionsOfMap($map: ID!) {
    runs(mapId: $map) {
      __typename
      ... on QueryRunsSuccess {
        data {
          runId: id
          nodeId
          status
          started: decisions(kind: AUTO_START) {
            trigger: choice
            who: decidedBy
            reason
          }
        }
      }
    }
  }
`);

describe.each(providers)('a run on a node with open dependencies on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let client: ReturnType<TestServer['connect']>['client'];

  beforeAll(async () => {
    model = await startScriptedModel({
      intent_decision: () => ({ intent: 'CONCLUDE', reason: 'its dependency answers it', confidence: 0.8 }),
      conclusion_draft: () => ({
        kind: 'DECISION',
        kindReason: 'a choice is asked for',
        conclusion: 'Build the search first.',
        keyPoints: ['users asked for search'],
        confidence: 0.7,
      }),
    });
    server = await startTestServer(provider, { model: model.model });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  /** A map (autoRun off: nothing starts unasked) whose root has `second`, which depends on `first`. */
  async function blockedPair(title: string) {
    const map = await call(client, CREATE_MAP, { input: { title } });
    await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: title } });
    const first = await call(client, CREATE_NODE, {
      input: { mapId: map.id, parentId: root.id, question: 'What do users need?' },
    });
    const second = await call(client, CREATE_NODE, {
      input: { mapId: map.id, parentId: root.id, question: 'What do we build first?' },
    });
    await call(client, ADD_DEPENDENCY, { nodeId: second.id, dependsOnId: first.id });
    return { mapId: map.id as string, first, second };
  }

  it('should accept the run as waiting, naming what it waits for, then start it when that concludes', async () => {
    const { mapId, first, second } = await blockedPair('Plan a release');
    const run = await call(client, PROCESS_NODE, { nodeId: second.id });
    expect(run).toMatchObject({
      status: 'WAITING_FOR_DEPENDENCIES',
      nodeId: second.id,
      waitingFor: [{ id: first.id, question: 'What do users need?' }],
    });
    // The node is busy: a second run is refused, and the waiting one is not started by it.
    const twice = await attempt(client, PROCESS_NODE, { nodeId: second.id });
    expect(twice.__typename).toBe('ConflictError');
    const runs = (await call(client, RUNS, { mapId })).data;
    expect(runs.map((r) => [r.id, r.status])).toEqual([[run.id, 'WAITING_FOR_DEPENDENCIES']]);
    expect(model.server.requests).toHaveLength(0);

    await call(client, SET_CONCLUSION, { input: { nodeId: first.id, conclusion: 'Search.' } });

    const review = await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: second.id });
    expect(review.runId).toBe(run.id);
    await call(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, accept: true } });
    const done = await waitForRun(client, mapId, run.id, ['COMPLETED']);
    expect(done.waitingFor).toEqual([]);
    expect((await call(client, NODE, { id: second.id })).conclusion).toBe('Build the search first.');

    const decisions = await call(client, RUN_DECISIONS, { map: mapId });
    expect(decisions.data.find((r) => r.runId === run.id)?.started).toEqual([
      {
        trigger: { trigger: 'DEPENDENCIES_CONCLUDED' },
        who: 'SYSTEM',
        reason: 'the questions it waited for are concluded, so the run you asked for starts',
      },
    ]);
    // The map's feed says so, in order: accepted as waiting, then started once the dependency concluded.
    const events = (await call(client, EVENTS, { mapId, first: 1000 })).events;
    const ofRun = events.filter(
      (e) => (e.__typename === 'RunWaitingForDependencies' || e.__typename === 'RunStarted') && e.runId === run.id,
    );
    expect(ofRun.map((e) => e.__typename)).toEqual(['RunWaitingForDependencies', 'RunStarted']);
    expect(ofRun[0]).toMatchObject({ waitingForIds: [first.id], waitingForQuestions: ['What do users need?'] });
    const concluded = events.findIndex((e) => e.__typename === 'NodeConcluded' && e.node.id === first.id);
    expect(events.indexOf(ofRun[1]!)).toBeGreaterThan(concluded);
  });

  it('should wait for every open dependency, not just the first to conclude', async () => {
    const { mapId, first, second } = await blockedPair('Plan a launch party');
    const third = await call(client, CREATE_NODE, {
      input: { mapId, parentId: first.parentId, question: 'Where is it held?' },
    });
    await call(client, ADD_DEPENDENCY, { nodeId: second.id, dependsOnId: third.id });
    const run = await call(client, PROCESS_NODE, { nodeId: second.id });
    expect(run.waitingFor.map((n) => n.id).sort()).toEqual([first.id, third.id].sort());

    await call(client, SET_CONCLUSION, { input: { nodeId: first.id, conclusion: 'Music.' } });
    // Concluding the first leaves one open: the run still waits for it, and it alone.
    const still = await eventually(async () => {
      const r = (await call(client, RUNS, { mapId })).data.find((x) => x.id === run.id);
      return r?.waitingFor.length === 1 ? r : null;
    }, 'the run to wait for the one left');
    expect(still).toMatchObject({ status: 'WAITING_FOR_DEPENDENCIES', waitingFor: [{ id: third.id }] });

    await call(client, SET_CONCLUSION, { input: { nodeId: third.id, conclusion: 'The roof.' } });
    await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: second.id });
    await call(client, CANCEL_RUN, { runId: run.id });
  });

  it('should let the person cancel a waiting run, leaving the node blocked and free for another run', async () => {
    const { mapId, first, second } = await blockedPair('Plan a migration');
    const run = await call(client, PROCESS_NODE, { nodeId: second.id });
    const cancelled = await call(client, CANCEL_RUN, { runId: run.id });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', errorCode: 'CANCELLED', waitingFor: [] });
    expect((await call(client, NODE, { id: second.id })).status).toBe('BLOCKED');
    expect((await attempt(client, CANCEL_RUN, { runId: run.id })).__typename).toBe('ValidationError');

    const again = await call(client, PROCESS_NODE, { nodeId: second.id });
    expect(again).toMatchObject({ status: 'WAITING_FOR_DEPENDENCIES', waitingFor: [{ id: first.id }] });
    await call(client, SET_CONCLUSION, { input: { nodeId: first.id, conclusion: 'Nothing breaks.' } });
    await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: second.id });
    const runs = (await call(client, RUNS, { mapId })).data;
    // The cancelled run stayed cancelled: only the second one started.
    expect(Object.fromEntries(runs.map((r) => [r.id, r.status]))).toEqual({
      [run.id]: 'CANCELLED',
      [again.id]: 'WAITING',
    });
    await call(client, CANCEL_RUN, { runId: again.id });
  });

  it('should start a waiting run whose last open dependency is removed', async () => {
    const { mapId, second } = await blockedPair('Plan a hiring round');
    const run = await call(client, PROCESS_NODE, { nodeId: second.id });
    await call(client, REMOVE_DEPENDENCY, { nodeId: second.id, dependsOnId: run.waitingFor[0]!.id });
    const review = await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: second.id });
    expect(review.runId).toBe(run.id);
    await call(client, CANCEL_RUN, { runId: run.id });
  });
});
