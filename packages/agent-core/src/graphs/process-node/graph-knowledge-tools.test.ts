import { describe, expect, it } from 'vitest';
import { AgentError } from '../../errors/agent-error.ts';
import { OfflineModel } from '../../model/offline-model.ts';
import { answers, cafeMap, pendingQuestion, processGraph, reply } from './graph.test-helpers.ts';
import {
  domainTool,
  fakeKnowledge,
  footfall,
  messagesOf,
  PromptRecordingModel,
  rent,
} from './graph-knowledge.test-helpers.ts';

const config = { configurable: { thread_id: 'run-1' } };
const fetchPage = { id: 'web/fetch_page', description: 'Fetches a web page', inputSchema: { type: 'object' } };

/** A port that searches (`rent`), lists domain_knowledge and fetch_page, and records what it is asked. */
function toolKnowledge(
  domain: { results: (typeof footfall)[]; notices: { message: string }[] } = {
    results: [footfall],
    notices: [],
  },
) {
  const asked: unknown[][] = [];
  const knowledge = fakeKnowledge([rent], {
    listTools: async () => [domainTool, fetchPage],
    domainKnowledge: async (...args) => {
      asked.push(['domain_knowledge', args[0], args[1]]);
      return domain;
    },
    callTool: async (id, args) => {
      asked.push([id, args]);
      if (!args.url) throw new AgentError('KNOWLEDGE_UNAVAILABLE', 'MCP server "web" refused fetch_page');
      return { content: 'Footfall: 2,000 a day.', sources: [{ title: id }] };
    },
  });
  return { knowledge, asked };
}

describe('node processing: tools the decompose and conclude agents choose', () => {
  it('should let the decomposition agent call domain_knowledge and post its passages with sources in DECOMPOSE', async () => {
    const { store, root } = await cafeMap();
    const { knowledge, asked } = toolKnowledge();
    const model = new PromptRecordingModel({
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.tool('domain_knowledge', { domain: 'retail', topic: 'footfall' }), answers.proposal],
    });
    const { graph } = processGraph(store, model, { knowledge });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));

    expect(question.kind).toBe('review-decomposition');
    expect(model.calls).toEqual(['intent', 'strategy', 'decompose', 'decompose']);
    expect(asked).toEqual([['domain_knowledge', 'retail', 'footfall']]);
    const [choosing, proposing] = model.prompts.decompose!;
    expect(choosing).toContain('domain_knowledge: The knowledge of a domain');
    expect(choosing).toContain('web/fetch_page');
    const passage = messagesOf(store, 'RAG').find((m) => m.content.includes('2,000 people'));
    expect(passage).toMatchObject({ conversation: 'DECOMPOSE', role: 'SYSTEM' });
    expect(passage!.metadata).toMatchObject({
      tool: 'domain_knowledge',
      arguments: { domain: 'retail', topic: 'footfall' },
      sources: [{ title: 'retail.md:10-14', uri: 'file://retail.md' }],
    });
    expect(proposing).toContain('(retail.md:10-14) Retail footfall');
    expect(proposing).toContain('(rent.md:3-5) Rent near campus');
  });

  it('should let the conclusion agent call another tool it chooses and quote the answer in every draft', async () => {
    const { store, root } = await cafeMap();
    const { knowledge, asked } = toolKnowledge();
    const model = new PromptRecordingModel({
      conclude: [
        answers.tool('web/fetch_page', { url: 'https://city.example/footfall' }),
        answers.draft('Open it.'),
        answers.draft('Open it in spring.'),
      ],
    });
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config);
    await graph.invoke(reply({ action: 'revise', feedback: 'When?' }), config);

    expect(asked).toEqual([['web/fetch_page', { url: 'https://city.example/footfall' }]]);
    const answer = messagesOf(store, 'RAG').find((m) => m.content === 'Footfall: 2,000 a day.');
    expect(answer).toMatchObject({ conversation: 'CONCLUDE' });
    expect(answer!.metadata).toMatchObject({ tool: 'web/fetch_page', sources: [{ title: 'web/fetch_page' }] });
    const drafts = model.prompts.conclude!.slice(1);
    expect(drafts).toHaveLength(2);
    for (const prompt of drafts) expect(prompt).toMatch(/\[1\] \(web\/fetch_page\) Footfall: 2,000 a day\.\n\[2\]/);
  });

  it('should post a notice in CONCLUDE and still draft when a source of domain_knowledge is down', async () => {
    const { store, root } = await cafeMap();
    const slow = 'MCP server "slow" did not answer domain_knowledge within 300 ms.';
    const { knowledge } = toolKnowledge({ results: [footfall], notices: [{ message: slow }] });
    const model = new PromptRecordingModel({
      conclude: [answers.tool('domain_knowledge', { domain: 'retail' }), answers.draft('Open it.')],
    });
    const { graph } = processGraph(store, model, { knowledge });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config));

    expect(question.kind).toBe('review-conclusion');
    const [notice] = messagesOf(store, 'NOTICE');
    expect(notice).toMatchObject({ conversation: 'CONCLUDE', content: expect.stringContaining(slow) });
    expect(model.prompts.conclude![1]).toContain('Retail footfall');
  });

  it('should post a notice and still propose sub-questions when the chosen tool fails', async () => {
    const { store, root } = await cafeMap();
    const { knowledge } = toolKnowledge();
    const model = new PromptRecordingModel({
      strategy: [answers.strategy],
      decompose: [answers.tool('web/fetch_page', {}), answers.proposal],
    });
    const { graph } = processGraph(store, model, { knowledge });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id, intentOverride: 'DECOMPOSE' }, config));

    expect(question.kind).toBe('review-decomposition');
    expect(messagesOf(store, 'NOTICE')).toMatchObject([
      { conversation: 'DECOMPOSE', content: expect.stringContaining('"web" refused fetch_page') },
    ]);
    expect(model.prompts.decompose![1]).not.toContain('fetch_page');
  });

  it('should choose no tool with the offline model before decomposing or concluding', async () => {
    for (const intentOverride of ['DECOMPOSE', 'CONCLUDE'] as const) {
      const { store, root } = await cafeMap();
      const { knowledge, asked } = toolKnowledge();
      const { graph } = processGraph(store, new OfflineModel(), { knowledge });
      const question = pendingQuestion(await graph.invoke({ nodeId: root.id, intentOverride }, config));
      expect(question.kind).toBe(intentOverride === 'CONCLUDE' ? 'review-conclusion' : 'review-decomposition');
      expect(asked).toEqual([]);
      expect(messagesOf(store, 'NOTICE')).toEqual([]);
      expect(messagesOf(store, 'RAG').map((m) => m.content)).toEqual([`${rent.title}\n${rent.content}`]);
    }
  });
});

describe('node processing: notices while exploring', () => {
  it('should post a notice for a source that is down beside the results of the ones that answered', async () => {
    const { store, root } = await cafeMap();
    const knowledge = fakeKnowledge([], {
      searchWithNotices: async () => ({ results: [rent], notices: [{ message: 'MCP server "slow" timed out' }] }),
    });
    const { graph } = processGraph(
      store,
      { intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')], conclude: [answers.draft('Open it.')] },
      { knowledge },
    );
    await graph.invoke({ nodeId: root.id }, config);

    const explored = store.messages.filter((m) => m.conversation === 'DECOMPOSE');
    expect(explored.map((m) => m.kind)).toEqual(['NOTICE', 'RAG']);
    expect(explored[0]!.content).toBe('The knowledge source could not be reached. (wiki: MCP server "slow" timed out)');
    expect(explored[1]!.metadata).toMatchObject({ sources: rent.sources });
  });
});
