import type { MapEvent, MapFields, MapNode, NodeDetail } from '../api/results.ts';

/** A node with defaults; pass what the test is about. */
export function aNode(overrides: Partial<MapNode> & { id: string }): MapNode {
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
    staleReason: null,
    staleSourceId: null,
    staleSourceQuestion: null,
    staleSince: null,
    version: 1,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    divergentLevel: null,
    divergentRole: null,
    completionScore: null,
    concludedAt: null,
    ...overrides,
  };
}

/** A node's panel details (the NODE query's result) with defaults: empty conversations, no context. */
export function aNodeDetail(overrides: Partial<NodeDetail> & { id: string }): NodeDetail {
  return {
    __typename: 'Node',
    ...aNode(overrides),
    parent: null,
    children: [],
    dependencies: [],
    dependents: [],
    readiness: { ready: true, blockedReason: null, openDependencies: [] },
    contextItems: [],
    conversations: [
      { id: `${overrides.id}-decompose`, kind: 'DECOMPOSE', messages: [] },
      { id: `${overrides.id}-conclude`, kind: 'CONCLUDE', messages: [] },
    ],
    ...overrides,
  };
}

/** A map with defaults. */
export function aMap(overrides: Partial<MapFields> = {}): MapFields {
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
export function nodeCreated(seq: number, node: MapNode): MapEvent {
  return { __typename: 'NodeCreated', mapId: node.mapId, seq, at: new Date(seq * 1000).toISOString(), node };
}
