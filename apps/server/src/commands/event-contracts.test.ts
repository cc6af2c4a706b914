import { type GraphQLObjectType, getNamedType, isEnumType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../schema/schema.ts';
import { decisionSnapshot } from './decision-snapshot.ts';
import { decodePayload, EVENT_CONTRACTS, EventContractError, type MapEventType } from './event-contracts.ts';
import {
  contextItemSnapshot,
  dependencySnapshot,
  mapSnapshot,
  messageSnapshot,
  nodeSnapshot,
  questionSnapshot,
  runSnapshot,
  toNodeSnapshot,
} from './event-snapshots.ts';
import { suggestionSnapshot } from './suggestion-snapshot.ts';

/** A node as version 1 stored it: the whole database row, dates as strings, columns no event shows included. */
const v1Node = {
  id: 'n1',
  mapId: 'm1',
  parentId: null,
  position: 0,
  question: 'How do we grow?',
  goal: '',
  constraints: ['this year'],
  type: 'ROOT',
  status: 'BLOCKED',
  statusReason: 'waits for “Pricing”',
  intent: null,
  strategy: null,
  conclusion: null,
  conclusionKind: null,
  divergentRole: null,
  divergentLevel: null,
  completionScore: null,
  version: 3,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  concludedAt: null,
};

/** Scalar fields counted from the database when asked, not carried. */
const COUNTED = new Set(['Map.nodeCount']);

const at = <K extends MapEventType>(type: K, version: number) => ({ mapId: 'm1', seq: 7, type, version });

describe('event contracts', () => {
  it('should upgrade a version 1 payload that stored a whole node row to the explicit snapshot', () => {
    const payload = decodePayload(at('NodeUpdated', 1), { node: v1Node, fields: ['status'] });
    expect(payload).toEqual({ node: toNodeSnapshot(v1Node as never), fields: ['status'] });
    expect(payload.node).not.toHaveProperty('statusReason');
    expect(Object.keys(payload.node).sort()).toEqual(Object.keys(nodeSnapshot.shape).sort());
  });

  it('should give a field an old row did not have yet its empty value', () => {
    const { divergentRole: _, completionScore: __, ...older } = v1Node;
    const payload = decodePayload(at('NodeCreated', 1), { node: older });
    expect(payload.node).toMatchObject({ divergentRole: null, completionScore: null, question: 'How do we grow?' });
  });

  it('should read a version 2 node, from before conclusions could go out of date, as current', () => {
    const v2 = toNodeSnapshot(v1Node as never) as Record<string, unknown>;
    for (const field of ['staleReason', 'staleSourceId', 'staleSourceQuestion', 'staleSince']) delete v2[field];
    const payload = decodePayload(at('NodeConcluded', 2), { node: v2 });
    expect(payload.node).toMatchObject({
      question: 'How do we grow?',
      staleReason: null,
      staleSourceId: null,
      staleSourceQuestion: null,
      staleSince: null,
    });
    expect(
      decodePayload(at('NodeStale', 1), { node: { ...payload.node, staleReason: 'CHILD_ADDED' } }).node,
    ).toMatchObject({
      staleReason: 'CHILD_ADDED',
    });
  });

  it('should drop what a run row carried beyond its contract (input, output, thread)', () => {
    const run = {
      id: 'r1',
      mapId: 'm1',
      nodeId: 'n1',
      agent: 'process-node',
      status: 'FAILED',
      threadId: 'r1',
      input: { nodeId: 'n1' },
      output: { big: 'x'.repeat(1000) },
      error: 'no',
      errorCode: 'MODEL_UNPARSEABLE',
      raw: '{"title": 1}',
      promptTokens: 10,
      completionTokens: 2,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:01.000Z',
      finishedAt: '2026-11-01T10:00:01.000Z',
    };
    const payload = decodePayload(at('RunFailed', 1), { run, code: 'MODEL_UNPARSEABLE', reason: 'no' });
    expect(payload.run).not.toHaveProperty('input');
    expect(payload.run).not.toHaveProperty('output');
    expect(payload.run).toMatchObject({ raw: '{"title": 1}', errorCode: 'MODEL_UNPARSEABLE' });
  });

  it('should read a current payload as stored, dropping fields outside its contract', () => {
    const step = {
      runId: 'r1',
      graph: 'process-node',
      nodeId: null,
      step: 'runTask',
      branch: 'L1.T2',
      phase: 'LEFT',
      outcome: 'done',
      durationMs: 3,
    };
    expect(decodePayload(at('AgentStep', 2), { ...step, secret: 1 })).toEqual(step);
  });

  it('should read a version 1 step, from before parallel branches were told apart, as one of no branch', () => {
    const step = { runId: 'r1', graph: 'divergent', nodeId: null, step: 'runTask', phase: 'ENTERED' };
    const v1 = { ...step, outcome: null, durationMs: null };
    expect(decodePayload(at('AgentStep', 1), v1)).toEqual({ ...v1, branch: null });
  });

  it('should read a version 1 deletion, which kept nothing of what it removed, with an empty archive', () => {
    const payload = decodePayload(at('NodeDeleted', 1), { nodeIds: ['n1'], dependencyIds: ['d1'] });
    expect(payload).toEqual({ nodeIds: ['n1'], dependencyIds: ['d1'], archive: [] });
  });

  it('should refuse a payload that breaks its contract, naming the event', () => {
    expect(() => decodePayload(at('NodeDeleted', 1), { nodeIds: 'n1' })).toThrow(EventContractError);
    expect(() => decodePayload(at('NodeDeleted', 1), { nodeIds: 'n1' })).toThrow(
      /event 7 of map m1 \(NodeDeleted v1\)/,
    );
  });

  it('should refuse an unknown type, a version newer than this server knows and a payload that is no object', () => {
    expect(() => decodePayload(at('NodeTeleported' as MapEventType, 1), {})).toThrow(/unknown event type/);
    expect(() => decodePayload(at('NodeCreated', EVENT_CONTRACTS.NodeCreated.version + 1), {})).toThrow(/newer/);
    expect(() => decodePayload(at('NodeCreated', 1), 'a node')).toThrow(/not an object/);
  });

  it('should have an upgrade from every older version of every type', () => {
    for (const [type, contract] of Object.entries(EVENT_CONTRACTS)) {
      for (let version = 1; version < contract.version; version++)
        expect(contract.upgrades, `${type} v${version}`).toHaveProperty(String(version));
    }
  });

  it('should carry every scalar field of the GraphQL type an event resolves its snapshot as', () => {
    const snapshots = {
      Node: nodeSnapshot,
      Map: mapSnapshot,
      Dependency: dependencySnapshot,
      ContextItem: contextItemSnapshot,
      Message: messageSnapshot,
      AgentRun: runSnapshot,
      Decision: decisionSnapshot,
      CriticSuggestion: suggestionSnapshot,
    };
    for (const [typeName, snapshot] of Object.entries(snapshots)) {
      const type = schema.getType(typeName) as GraphQLObjectType;
      const scalars = Object.values(type.getFields())
        .filter((field) => isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type)))
        .map((field) => field.name)
        .filter((name) => !COUNTED.has(`${typeName}.${name}`));
      expect(Object.keys(snapshot.shape), typeName).toEqual(expect.arrayContaining(scalars));
    }
    // AgentQuestion and QuestionResolved expose the question's fields flat (requestId is its id).
    const questionEvent = schema.getType('AgentQuestion') as GraphQLObjectType;
    const flat = Object.keys(questionEvent.getFields()).filter((f) => !['mapId', 'seq', 'at'].includes(f));
    const carried = new Set([...Object.keys(questionSnapshot.shape), 'requestId']);
    expect(flat.filter((f) => !carried.has(f))).toEqual([]);
  });
});
