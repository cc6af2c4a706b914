import { describe, expect, it } from 'vitest';
import { OfflineModel } from '../../model/offline-model.ts';
import type { ScriptedModel } from '../../testing/scripted-model.ts';
import { answers, cafeMap, pendingQuestion, processGraph, reply } from './graph.test-helpers.ts';

const config = { configurable: { thread_id: 'run-1' } };

describe('node processing: dependencies', () => {
  it('should stop a blocked node with a clear reason and no model call', async () => {
    const { store, map, root } = await cafeMap();
    const market = await store.createNode({
      mapId: map.id,
      parentId: root.id,
      question: 'How big is the market?',
      goal: 'size',
    });
    const site = await store.createNode({ mapId: map.id, parentId: root.id, question: 'Which site?', goal: 'pick' });
    await store.addDependency(site.id, market.id);
    const { graph, model } = processGraph(store, {});
    const done = await graph.invoke({ nodeId: site.id }, config);
    expect(done.outcome).toBe('BLOCKED');
    expect(done.blockedReason).toContain('How big is the market?');
    expect(store.nodes.get(site.id)?.status).toBe('BLOCKED');
    expect(store.messages.at(-1)).toMatchObject({ kind: 'NOTICE', nodeId: site.id });
    expect((model as ScriptedModel).calls).toEqual([]);
  });
});

describe('node processing: decomposition', () => {
  it('should create no node before the person approves, then create children with dependencies', async () => {
    const { store, root } = await cafeMap();
    const { graph, events } = processGraph(store, {
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal],
    });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(question.kind).toBe('review-decomposition');
    expect(question.context.strategy).toMatchObject({ strategy: 'SEQUENTIAL', factors: [{ factor: 'complexity' }] });
    expect(store.childrenOf(root.id)).toEqual([]);
    expect(store.nodes.get(root.id)).toMatchObject({ status: 'WAITING', intent: 'DECOMPOSE', strategy: 'SEQUENTIAL' });

    const edited = [
      answers.proposal.subQuestions[0],
      { ...answers.proposal.subQuestions[1], question: 'Which street?' },
    ];
    const done = await graph.invoke(reply({ action: 'approve', subQuestions: edited }), config);
    const children = store.childrenOf(root.id);
    expect(children.map((c) => [c.question, c.status])).toEqual([
      ['How big is the market?', 'READY'],
      ['Which street?', 'BLOCKED'],
    ]);
    expect(store.dependencies).toEqual([{ nodeId: children[1]!.id, dependsOnId: children[0]!.id }]);
    expect(done.outcome).toBe('DECOMPOSED');
    expect(events.lines).toContain('left reviewProposal interrupted');
  });

  it('should propose again with the feedback and the strategy the person chose when they reject', async () => {
    const { store, root } = await cafeMap();
    const second = {
      rationale: 'parallel',
      subQuestions: [{ key: 'a', question: 'Costs?', goal: 'c', dependsOn: [] }],
    };
    const { graph, model } = processGraph(store, {
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal, second],
    });
    await graph.invoke({ nodeId: root.id }, config);
    const again = pendingQuestion(
      await graph.invoke(reply({ action: 'reject', feedback: 'too narrow', strategy: 'PARALLEL' }), config),
    );
    expect(again.context.round).toBe(2);
    expect(store.childrenOf(root.id)).toEqual([]);
    await graph.invoke(reply({ action: 'approve' }), config);
    expect(store.childrenOf(root.id).map((c) => c.question)).toEqual(['Costs?']);
    expect((model as ScriptedModel).calls).toEqual(['intent', 'strategy', 'decompose', 'decompose']);
  });
});

describe('node processing: resuming is idempotent', () => {
  it('should create no duplicate nodes or messages and call no model again when a waiting step resumes', async () => {
    const { store, root } = await cafeMap();
    const { graph, model } = processGraph(store, {
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal],
    });
    await graph.invoke({ nodeId: root.id }, config);
    const messagesBefore = store.messages.length;
    await graph.invoke(reply({ action: 'approve' }), config);
    expect(store.messages.length).toBe(messagesBefore);
    expect(store.nodes.size).toBe(3);
    expect((model as ScriptedModel).calls).toEqual(['intent', 'strategy', 'decompose']);
  });

  it('should not duplicate children when creating them fails halfway and the step runs again', async () => {
    const { store, root } = await cafeMap();
    const { graph } = processGraph(store, {
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal],
    });
    await graph.invoke({ nodeId: root.id }, config);
    const addDependency = store.addDependency.bind(store);
    let failures = 1;
    store.addDependency = async (...args) => {
      if (failures-- > 0) throw new Error('database went away');
      return addDependency(...args);
    };
    await expect(graph.invoke(reply({ action: 'approve' }), config)).rejects.toThrow('database went away');
    expect(store.childrenOf(root.id)).toHaveLength(2);
    const done = await graph.invoke(null, config);
    expect(done.outcome).toBe('DECOMPOSED');
    expect(store.childrenOf(root.id)).toHaveLength(2);
    expect(store.dependencies).toHaveLength(1);
  });
});

describe('node processing: conclusion', () => {
  it('should revise the draft on feedback until the person accepts, streaming its tokens', async () => {
    const { store, root } = await cafeMap();
    const { graph, events } = processGraph(store, {
      intent: [answers.intent('CONCLUDE')],
      conclude: [answers.draft('Open it.'), answers.draft('Open it in spring.')],
    });
    const first = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(first.context.draft).toMatchObject({ conclusion: 'Open it.' });
    expect(store.nodes.get(root.id)?.conclusion).toBeNull();
    const second = pendingQuestion(await graph.invoke(reply({ action: 'revise', feedback: 'when?' }), config));
    expect(second.context.draft).toMatchObject({ conclusion: 'Open it in spring.' });
    await graph.invoke(reply({ action: 'accept' }), config);
    expect(store.nodes.get(root.id)).toMatchObject({
      conclusion: 'Open it in spring.',
      conclusionKind: 'DECISION',
      status: 'COMPLETED',
    });
    expect(events.tokens).toContain('Open it in spring.');
  });

  it('should use the conclusion kind and the intent the person chose', async () => {
    const { store, root } = await cafeMap();
    const { graph, model } = processGraph(store, { conclude: [answers.draft('Learn roasting first.')] });
    await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE', conclusionKind: 'LEARNING' }, config);
    await graph.invoke(reply({ action: 'accept', conclusion: 'Learn roasting first, then open.' }), config);
    expect(store.nodes.get(root.id)).toMatchObject({
      conclusion: 'Learn roasting first, then open.',
      conclusionKind: 'LEARNING',
      intent: 'CONCLUDE',
    });
    expect((model as ScriptedModel).calls).toEqual(['conclude']);
  });
});

describe('node processing: offline', () => {
  it('should decompose and conclude a Chinese map with the offline model', async () => {
    const { store, root } = await cafeMap('zh');
    const { graph } = processGraph(store, new OfflineModel());
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(question.question).toContain('子问题');
    await graph.invoke(reply({ action: 'approve' }), config);
    const [first] = store.childrenOf(root.id);
    const child = processGraph(store, new OfflineModel()).graph;
    await child.invoke({ nodeId: first!.id }, { configurable: { thread_id: 'run-2' } });
    await child.invoke(reply({ action: 'accept' }), { configurable: { thread_id: 'run-2' } });
    expect(store.nodes.get(first!.id)?.conclusion).toContain('【离线草稿】');
  });
});
