import type { MapEvent } from '../api/map-event.ts';
import type { MapRecord, NodeRecord } from '../api/types.ts';

/** A node with defaults; pass what the test is about. */
export function aNode(overrides: Partial<NodeRecord> & { id: string }): NodeRecord {
  return {
    mapId: 'm1',
    parentId: null,
    position: 0,
    question: `Question ${overrides.id}`,
    goal: '',
    constraints: [],
    type: overrides.parentId ? 'TASK' : 'ROOT',
    status: 'READY',
    intent: null,
    strategy: null,
    conclusion: null,
    conclusionKind: null,
    version: 1,
    ...overrides,
  };
}

/** A map with defaults. */
export function aMap(overrides: Partial<MapRecord> = {}): MapRecord {
  return {
    id: 'm1',
    title: 'A map',
    problem: 'A problem',
    goal: 'A goal',
    constraints: [],
    language: 'en',
    mode: 'STANDARD',
    status: 'ACTIVE',
    autoRun: false,
    version: 1,
    lastSeq: 0,
    ...overrides,
  };
}

/** A NodeCreated event at `seq`. */
export function nodeCreated(seq: number, node: NodeRecord): MapEvent {
  return { __typename: 'NodeCreated', mapId: node.mapId, seq, at: new Date(seq * 1000).toISOString(), node };
}
