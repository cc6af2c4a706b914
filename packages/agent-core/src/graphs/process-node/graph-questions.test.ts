import { describe, expect, it } from 'vitest';
import { PortCheckpointSaver } from '../../checkpoint/port-checkpoint-saver.ts';
import { AgentError } from '../../errors/agent-error.ts';
import type { KnowledgePort } from '../../ports/knowledge-port.ts';
import { InMemoryCheckpointStore } from '../../testing/in-memory-checkpoint-store.ts';
import type { ScriptedModel } from '../../testing/scripted-model.ts';
import { answers, cafeMap, pendingQuestion, processGraph, reply } from './graph.test-helpers.ts';

const config = { configurable: { thread_id: 'run-q' } };

describe('node processing: clarify', () => {
  it('should pause with a question and why it is needed, then thread the answer and decide again', async () => {
    const { store, root } = await cafeMap();
    const { graph, events, model } = processGraph(store, {
      intent: [answers.intent('CLARIFY'), answers.intent('CONCLUDE')],
      clarify: [{ question: 'What budget do you have?', why: 'it rules sites in or out' }],
      conclude: [answers.draft('Open in the suburbs.')],
    });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(question).toMatchObject({
      kind: 'clarify',
      question: 'What budget do you have?',
      context: { why: 'it rules sites in or out' },
    });
    expect(events.questions[0]?.requestId).toBeTruthy();
    expect(store.nodes.get(root.id)?.status).toBe('WAITING');

    const next = pendingQuestion(await graph.invoke(reply({ answer: '50k EUR' }), config));
    expect(next.kind).toBe('review-conclusion');
    const [asked, answered] = store.messages;
    expect(answered).toMatchObject({ role: 'USER', content: '50k EUR', parentId: asked!.id });
    expect((model as ScriptedModel).calls).toEqual(['intent', 'clarify', 'intent', 'conclude']);
  });

  it('should stop asking once the question cap is reached and conclude with what it has', async () => {
    const { store, root } = await cafeMap();
    const { graph } = processGraph(
      store,
      {
        intent: [answers.intent('CLARIFY'), answers.intent('CLARIFY')],
        clarify: [{ question: 'Budget?', why: 'sites' }],
        conclude: [answers.draft('Wait a year.')],
      },
      { maxQuestions: 1 },
    );
    await graph.invoke({ nodeId: root.id }, config);
    const next = pendingQuestion(await graph.invoke(reply({ answer: 'small' }), config));
    expect(next.kind).toBe('review-conclusion');
  });

  it('should go on without asking again when the question expired', async () => {
    const { store, root } = await cafeMap();
    const { graph, model } = processGraph(store, {
      intent: [answers.intent('CLARIFY')],
      clarify: [{ question: 'Budget?', why: 'sites' }],
      conclude: [answers.draft('Assume a small budget.')],
    });
    await graph.invoke({ nodeId: root.id }, config);
    const next = pendingQuestion(await graph.invoke(reply({ expired: true }), config));
    expect(next.kind).toBe('review-conclusion');
    expect(store.messages.at(-2)).toMatchObject({ kind: 'NOTICE' });
    expect((model as ScriptedModel).calls).toEqual(['intent', 'clarify', 'conclude']);
  });

  it('should go on with a notice saying the person skipped the question', async () => {
    const { store, root } = await cafeMap();
    const { graph } = processGraph(store, {
      intent: [answers.intent('CLARIFY')],
      clarify: [{ question: 'Budget?', why: 'sites' }],
      conclude: [answers.draft('Assume a small budget.')],
    });
    await graph.invoke({ nodeId: root.id }, config);
    const next = pendingQuestion(await graph.invoke(reply({ skipped: true }), config));
    expect(next.kind).toBe('review-conclusion');
    expect(store.messages.at(-2)).toMatchObject({ kind: 'NOTICE', content: expect.stringMatching(/skipped/) });
  });

  it('should never pass a review gate on an expired reply', async () => {
    const { store, root } = await cafeMap();
    const { graph } = processGraph(store, {
      intent: [answers.intent('CONCLUDE')],
      conclude: [answers.draft('Open it.')],
    });
    expect(pendingQuestion(await graph.invoke({ nodeId: root.id }, config)).kind).toBe('review-conclusion');
    await expect(graph.invoke(reply({ expired: true }), config)).rejects.toThrow();
    expect(store.nodes.get(root.id)?.conclusion ?? null).toBeNull();
  });
});

describe('node processing: explore', () => {
  const knowledge = (search: KnowledgePort['search']): KnowledgePort => ({ name: 'test wiki', search });

  it('should post search results as RAG messages with sources, then recognise the intent again', async () => {
    const { store, root } = await cafeMap();
    const wiki = knowledge(async () => [
      {
        title: 'Café density',
        content: '12 cafés per km²',
        score: 0.9,
        sources: [{ title: 'City stats', uri: 'https://example.org/stats' }],
      },
    ]);
    const { graph, model } = processGraph(
      store,
      { intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')], conclude: [answers.draft('Saturated.')] },
      { knowledge: wiki },
    );
    pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    const rag = store.messages.find((m) => m.kind === 'RAG');
    expect(rag).toMatchObject({
      content: 'Café density\n12 cafés per km²',
      metadata: { sources: [{ title: 'City stats', uri: 'https://example.org/stats' }] },
    });
    expect((model as ScriptedModel).calls).toEqual(['intent', 'intent', 'conclude']);
  });

  it('should post a notice instead of failing when the knowledge source is down', async () => {
    const { store, root } = await cafeMap();
    const down = knowledge(async () => {
      throw new AgentError('KNOWLEDGE_UNAVAILABLE', 'timeout');
    });
    const { graph } = processGraph(
      store,
      { intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')], conclude: [answers.draft('x')] },
      { knowledge: down },
    );
    await graph.invoke({ nodeId: root.id }, config);
    expect(store.messages[0]).toMatchObject({ kind: 'NOTICE', content: expect.stringContaining('test wiki') });
  });

  it('should stop exploring after the cap even without a knowledge source', async () => {
    const { store, root } = await cafeMap();
    const { graph } = processGraph(store, {
      intent: [answers.intent('EXPLORE'), answers.intent('EXPLORE'), answers.intent('EXPLORE')],
      conclude: [answers.draft('x')],
    });
    expect(pendingQuestion(await graph.invoke({ nodeId: root.id }, config)).kind).toBe('review-conclusion');
    expect(store.messages.filter((m) => m.kind === 'NOTICE')).toHaveLength(2);
  });
});

describe('node processing: restart', () => {
  it('should finish a decomposition review after a restart with a new graph and saver over the same rows', async () => {
    const { store, root } = await cafeMap();
    const rows = new InMemoryCheckpointStore();
    const before = processGraph(
      store,
      { intent: [answers.intent('DECOMPOSE')], strategy: [answers.strategy], decompose: [answers.proposal] },
      { checkpointer: new PortCheckpointSaver(rows) },
    );
    await before.graph.invoke({ nodeId: root.id }, config);

    const after = processGraph(store, {}, { checkpointer: new PortCheckpointSaver(rows) });
    const done = await after.graph.invoke(reply({ action: 'approve' }), config);
    expect(done.outcome).toBe('DECOMPOSED');
    expect(store.childrenOf(root.id)).toHaveLength(2);
    expect((after.model as ScriptedModel).calls).toEqual([]);
    expect(after.events.lines).toEqual([
      'entered reviewProposal',
      'left reviewProposal done',
      'entered createChildren',
      'left createChildren done',
    ]);
  });
});
