import { describe, expect, it } from 'vitest';
import { AgentError } from '../../errors/agent-error.ts';
import { OfflineModel } from '../../model/offline-model.ts';
import type { ScriptedModel } from '../../testing/scripted-model.ts';
import { answers, cafeMap, pendingQuestion, processGraph, reply } from './graph.test-helpers.ts';
import { fakeKnowledge, messagesOf, PromptRecordingModel, rent } from './graph-knowledge.test-helpers.ts';

const config = { configurable: { thread_id: 'run-1' } };

describe('node processing: knowledge for decomposition and conclusion', () => {
  it('should search once before proposing sub-questions and post the results with sources in DECOMPOSE', async () => {
    const { store, root } = await cafeMap();
    const model = new PromptRecordingModel({
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal, answers.proposal],
    });
    const knowledge = fakeKnowledge([rent]);
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id }, config);
    await graph.invoke(reply({ action: 'reject', feedback: 'again' }), config);

    const [rag] = messagesOf(store, 'RAG');
    expect(rag).toMatchObject({
      conversation: 'DECOMPOSE',
      role: 'SYSTEM',
      content: expect.stringContaining('80 per'),
    });
    expect(rag!.metadata).toMatchObject({ sources: [{ title: 'rent.md:3-5', uri: 'file://rent.md' }] });
    expect(knowledge.searches).toBe(1);
    for (const prompt of model.prompts.decompose!) {
      expect(prompt).toContain('Retrieved knowledge');
      expect(prompt).toContain('(rent.md:3-5) Rent near campus');
    }
  });

  it('should search once before drafting a conclusion and keep the snippets in every draft prompt', async () => {
    const { store, root } = await cafeMap('zh');
    const model = new PromptRecordingModel({
      intent: [answers.intent('CONCLUDE')],
      conclude: [answers.draft('开。'), answers.draft('春天开。')],
    });
    const knowledge = fakeKnowledge([rent]);
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id }, config);
    await graph.invoke(reply({ action: 'revise', feedback: '什么时候？' }), config);

    expect(messagesOf(store, 'RAG').map((m) => m.conversation)).toEqual(['CONCLUDE']);
    expect(knowledge.searches).toBe(1);
    expect(model.prompts.conclude).toHaveLength(2);
    for (const prompt of model.prompts.conclude!) expect(prompt).toContain('检索到的知识');
    expect(model.calls).toEqual(['intent', 'conclude', 'conclude']);
  });

  it('should bound the snippets in the prompt to 2,000 characters', async () => {
    const { store, root } = await cafeMap();
    const model = new PromptRecordingModel({ conclude: [answers.draft('Open it.')] });
    const long = { ...rent, content: 'x'.repeat(5000) };
    const { graph } = processGraph(store, model, {
      knowledge: fakeKnowledge([long, { ...long, content: 'y'.repeat(5000) }]),
    });
    await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config);
    const [prompt] = model.prompts.conclude!;
    const snippets = prompt!.split('Retrieved knowledge (quote it only where it applies):\n')[1]!;
    expect(snippets.length).toBeLessThanOrEqual(2000);
    expect(messagesOf(store, 'RAG')).toHaveLength(2);
  });

  it('should post a notice and still draft the conclusion when the knowledge source is down', async () => {
    const { store, root } = await cafeMap();
    const model = new PromptRecordingModel({ conclude: [answers.draft('Open it.')] });
    const { graph } = processGraph(store, model, { knowledge: fakeKnowledge([], { down: true }) });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config));
    expect(question.context.draft).toMatchObject({ conclusion: 'Open it.' });
    const [notice] = messagesOf(store, 'NOTICE');
    expect(notice).toMatchObject({ conversation: 'CONCLUDE', content: expect.stringContaining('within 1000 ms') });
    expect(model.prompts.conclude![0]).not.toContain('Retrieved knowledge');
  });

  it('should post one notice per failed source that a port reports beside its results', async () => {
    const { store, root } = await cafeMap();
    const knowledge = fakeKnowledge([], {
      searchWithNotices: async () => ({ results: [rent], notices: [{ message: 'MCP server "slow" timed out' }] }),
    });
    const { graph } = processGraph(store, { conclude: [answers.draft('Open it.')] }, { knowledge });
    await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config);
    expect(store.messages.map((m) => [m.kind, m.conversation])).toEqual(
      expect.arrayContaining([
        ['NOTICE', 'CONCLUDE'],
        ['RAG', 'CONCLUDE'],
      ]),
    );
    expect(messagesOf(store, 'NOTICE')[0]!.content).toContain('"slow" timed out');
  });
});

describe('node processing: other knowledge tools when exploring', () => {
  const fetchPage = { id: 'web/fetch_page', description: 'Fetches a web page', inputSchema: { type: 'object' } };

  it('should call the tool the model chooses and post its answer with the tool as source', async () => {
    const { store, root } = await cafeMap();
    const calls: unknown[] = [];
    const knowledge = fakeKnowledge([rent], {
      listTools: async () => [fetchPage],
      callTool: async (id, args) => {
        calls.push([id, args]);
        return { content: 'Footfall: 2,000 a day.', sources: [{ title: id }] };
      },
    });
    const model = new PromptRecordingModel({
      intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')],
      explore: [{ tool: 'web/fetch_page', arguments: { url: 'https://city.example/footfall' }, why: 'footfall' }],
      // Before drafting, the conclusion agent is offered the tools too, and chooses none.
      conclude: [answers.tool(null), answers.draft('Open it.')],
    });
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id }, config);

    expect(calls).toEqual([['web/fetch_page', { url: 'https://city.example/footfall' }]]);
    expect(model.prompts.explore![0]).toContain('web/fetch_page: Fetches a web page');
    const toolMessage = store.messages.find((m) => m.content === 'Footfall: 2,000 a day.');
    expect(toolMessage).toMatchObject({ kind: 'RAG', conversation: 'DECOMPOSE' });
    expect(toolMessage!.metadata).toMatchObject({ sources: [{ title: 'web/fetch_page' }], why: 'footfall' });
    expect(model.calls).toEqual(['intent', 'explore', 'intent', 'conclude', 'conclude']);
  });

  it('should post a notice and go on when the chosen tool fails', async () => {
    const { store, root } = await cafeMap();
    const knowledge = fakeKnowledge([], {
      listTools: async () => [fetchPage],
      callTool: async () => {
        throw new AgentError('KNOWLEDGE_UNAVAILABLE', 'MCP server "web" did not answer fetch_page');
      },
    });
    const { graph } = processGraph(
      store,
      {
        intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')],
        explore: [{ tool: 'web/fetch_page', arguments: {}, why: 'footfall' }],
        conclude: [answers.tool(null), answers.draft('Open it.')],
      },
      { knowledge },
    );
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(question.kind).toBe('review-conclusion');
    expect(messagesOf(store, 'NOTICE').map((m) => m.content)).toEqual(
      expect.arrayContaining([expect.stringContaining('did not answer fetch_page')]),
    );
  });

  it('should call no tool with the offline model', async () => {
    const { store, root } = await cafeMap();
    let called = false;
    const knowledge = fakeKnowledge([rent], {
      listTools: async () => [fetchPage],
      callTool: async () => {
        called = true;
        return { content: '', sources: [] };
      },
    });
    const { graph } = processGraph(store, new OfflineModel(), { knowledge });
    await graph.invoke({ nodeId: root.id, intentOverride: 'EXPLORE' }, config);
    expect(called).toBe(false);
    expect(messagesOf(store, 'NOTICE')).toEqual([]);
  });

  it('should ask the model nothing when the port offers no other tool', async () => {
    const { store, root } = await cafeMap();
    const knowledge = fakeKnowledge([rent], {
      listTools: async () => [],
      callTool: async () => ({ content: '', sources: [] }),
    });
    const { graph, model } = processGraph(
      store,
      { intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')], conclude: [answers.draft('Open it.')] },
      { knowledge },
    );
    await graph.invoke({ nodeId: root.id }, config);
    expect((model as ScriptedModel).calls).toEqual(['intent', 'intent', 'conclude']);
  });
});
