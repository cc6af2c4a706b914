import type { Client } from '@urql/core';
import { describe, expect, it } from 'vitest';
import type { MapEvent } from '../api/results.ts';
import { MapStore } from '../map/map-store.svelte.ts';
import { aMap, aNode } from '../testing/fixtures.ts';
import { type DivergentSessionData, DivergentSessions, flowOf } from './divergent-sessions.svelte.ts';

const at = new Date(0).toISOString();
const dim = (score: number) => ({ score, reason: `why ${score}` });

function aSession(overrides: Partial<DivergentSessionData> = {}): DivergentSessionData {
  return {
    __typename: 'DivergentSession',
    id: 'run1',
    nodeId: 'root',
    status: 'RUNNING',
    level: 1,
    threshold: 0.9,
    maxLevels: 5,
    maxParallel: 8,
    reviewEachLevel: false,
    outcome: null,
    finalNodeId: null,
    note: null,
    drewOn: [],
    levels: [
      {
        level: 1,
        plannedFromNodeId: 's0',
        tasks: [
          {
            key: 'L1.T1',
            nodeId: 't1',
            name: 'one',
            query: 'q',
            skill: 'commonQnA',
            priority: 3,
            status: 'RUNNING',
            reason: null,
            addedByPerson: false,
          },
        ],
        dropped: [],
        score: null,
      },
    ],
    scores: [],
    runningTasks: [],
    droppedTasks: [],
    stopRequested: false,
    feedback: [],
    addedTasks: [],
    ...overrides,
  } as DivergentSessionData;
}

/** A client whose `divergentSession` answers what `current()` returns, counting the reads. */
function fakeClient(current: () => DivergentSessionData) {
  const reads = { count: 0 };
  const client = {
    query: () => ({
      toPromise: async () => {
        reads.count += 1;
        return { data: { divergentSession: current() } };
      },
    }),
  } as unknown as Client;
  return { client, reads };
}

function storeWith(nodes: ReturnType<typeof aNode>[]) {
  const store = new MapStore();
  store.load({ ...aMap({ lastSeq: 1 }), nodes, dependencies: [] });
  store.agents.seed([{ id: 'run1', nodeId: 'root', agent: 'divergent', status: 'RUNNING', error: null }], []);
  return store;
}

const tokens = (seq: number, nodeId: string, text: string) =>
  ({ __typename: 'AgentTokens', mapId: 'm', seq, at, runId: 'run1', nodeId, text }) as MapEvent;

describe('DivergentSessions', () => {
  it('should read the sessions of the map’s runs, collect each task’s streamed text, and read again on its events', async () => {
    const store = storeWith([
      aNode({ id: 'root' }),
      aNode({ id: 's0', parentId: 'root', divergentRole: 'SUMMARY', divergentLevel: 0 }),
    ]);
    let session = aSession();
    const { client, reads } = fakeClient(() => session);
    const sessions = new DivergentSessions(client, store);
    const stop = sessions.start();
    await expect.poll(() => sessions.sessions.run1?.status).toBe('RUNNING');

    store.apply(tokens(2, 't1', 'Hel'));
    store.apply(tokens(3, 't1', 'lo'));
    store.apply(tokens(4, 'root', 'summary text'));
    expect(sessions.streamed).toEqual({ t1: 'Hello' });

    session = aSession({ status: 'COMPLETED' });
    const before = reads.count;
    store.apply({
      __typename: 'DivergentTaskFinished',
      mapId: 'm',
      seq: 5,
      at,
      runId: 'run1',
      nodeId: 't1',
      level: 1,
      key: 'L1.T1',
    } as MapEvent);
    await expect.poll(() => sessions.sessions.run1?.status).toBe('COMPLETED');
    expect(reads.count).toBe(before + 1);
    stop();
  });

  it('should draw the flow from the summaries on the map, each with its score and the tasks planned from it', () => {
    const nodes = Object.fromEntries(
      [
        aNode({ id: 'root' }),
        aNode({ id: 's0', parentId: 'root', divergentRole: 'SUMMARY', divergentLevel: 0 }),
        aNode({ id: 't1', parentId: 's0', divergentRole: 'TASK', divergentLevel: 1 }),
        aNode({ id: 's1', parentId: 's0', divergentRole: 'SUMMARY', divergentLevel: 1 }),
        aNode({ id: 'f', parentId: 's1', divergentRole: 'FINAL', divergentLevel: 1 }),
      ].map((n) => [n.id, n]),
    );
    const score = {
      level: 1,
      summaryNodeId: 's1',
      overall: 0.5,
      threshold: 0.9,
      completeness: dim(0.5),
      intentMatch: dim(0.5),
      quality: dim(0.5),
    };
    const flow = flowOf(aSession({ scores: [score] }), nodes);
    expect(
      flow.levels.map((l) => [l.level, l.summary?.id, l.score?.overall ?? null, l.tasks.map((t) => t.key)]),
    ).toEqual([
      [0, 's0', null, ['L1.T1']],
      [1, 's1', 0.5, []],
    ]);
    // The final output is found on the map before the session names it.
    expect(flow.final?.id).toBe('f');
  });
});
