import { describe, expect, it } from 'vitest';
import { answers, cafeMap, processGraph } from './graph.test-helpers.ts';
import { domainTool, fakeKnowledge, messagesOf, PromptRecordingModel, rent } from './graph-knowledge.test-helpers.ts';

const config = { configurable: { thread_id: 'run-1' } };

/** A café map whose root has one message in each of its conversations. */
async function talkedAbout() {
  const { store, root } = await cafeMap();
  const say = (conversation: 'DECOMPOSE' | 'CONCLUDE', content: string) =>
    store.postMessage({ nodeId: root.id, conversation, role: 'USER', kind: 'TEXT', content });
  await say('DECOMPOSE', 'Split it by district, please.');
  await say('CONCLUDE', 'Whatever we conclude, rent must stay under 3k.');
  return { store, root };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('node processing: each agent reads both conversations, its own first', () => {
  it('should show the conclusion agent the conclude conversation, then the decompose one', async () => {
    const { store, root } = await talkedAbout();
    const model = new PromptRecordingModel({
      intent: [answers.intent('CONCLUDE')],
      conclude: [answers.draft('Open.')],
    });
    const { graph } = processGraph(store, model);
    await graph.invoke({ nodeId: root.id }, config);
    const [conclude] = model.prompts.conclude!;
    expect(conclude).toContain('## Conversation about its conclusion\n1 messages (1 from the person');
    expect(conclude).toMatch(/## Conversation about its conclusion\n[^#]*rent must stay under 3k/);
    expect(conclude).toMatch(
      /## Conversation about its conclusion\n[^#]*## Conversation about splitting this question\n[^#]*Split it by district/,
    );
  });

  it('should show decomposition the decompose conversation, then the conclude one, and intent recognition both', async () => {
    const { store, root } = await talkedAbout();
    const model = new PromptRecordingModel({
      intent: [answers.intent('DECOMPOSE')],
      strategy: [answers.strategy],
      decompose: [answers.proposal],
    });
    const { graph } = processGraph(store, model);
    await graph.invoke({ nodeId: root.id }, config);
    const [intent] = model.prompts.intent!;
    expect(intent).toContain('Split it by district');
    expect(intent).toContain('rent must stay under 3k');
    for (const prompt of [...model.prompts.strategy!, ...model.prompts.decompose!]) {
      expect(prompt).toMatch(
        /## Conversation about splitting this question\n[^#]*Split it by district[^#]*## Conversation about its conclusion\n[^#]*rent must stay under 3k/,
      );
    }
  });

  it('should post a passage once per conversation in a run and show it once in the conclusion prompt, also after exploring', async () => {
    const { store, root } = await cafeMap();
    // Exploring from a node with children posts in CONCLUDE, where the conclusion then gathers the same passage.
    await store.createNode({ mapId: root.mapId, parentId: root.id, question: 'Which site?', goal: 'pick one' });
    const model = new PromptRecordingModel({
      intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')],
      conclude: [answers.draft('Open near campus.')],
    });
    const knowledge = fakeKnowledge([rent]);
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id }, config);

    expect(knowledge.searches).toBe(2);
    expect(messagesOf(store, 'RAG')).toHaveLength(1);
    // The intent agent, deciding after exploring, sees what was found in the conversation.
    expect(model.prompts.intent![1]).toContain('80 per square metre');
    const [conclude] = model.prompts.conclude!;
    expect(count(conclude!, '80 per square metre')).toBe(1);
    expect(conclude).toContain('(rent.md:3-5) Rent near campus');
  });

  it('should post what a chosen tool found again only once, saying so', async () => {
    const { store, root } = await cafeMap();
    const knowledge = fakeKnowledge([rent], {
      listTools: async () => [domainTool],
      domainKnowledge: async () => ({ results: [rent], notices: [] }),
    });
    const model = new PromptRecordingModel({
      conclude: [answers.tool('domain_knowledge', { domain: 'retail' }), answers.draft('Open.')],
    });
    const { graph } = processGraph(store, model, { knowledge });
    await graph.invoke({ nodeId: root.id, intentOverride: 'CONCLUDE' }, config);
    expect(messagesOf(store, 'RAG')).toHaveLength(1);
    const [notice] = messagesOf(store, 'NOTICE');
    expect(notice).toMatchObject({
      conversation: 'CONCLUDE',
      content: 'The chosen tool (domain_knowledge) found 1 passage, already shown above.',
    });
    expect(notice!.metadata).toMatchObject({ tool: 'domain_knowledge', why: 'why domain_knowledge' });
  });

  it('should post a passage in each conversation it serves: explored in DECOMPOSE, gathered for the conclusion in CONCLUDE', async () => {
    const { store, root } = await cafeMap();
    const model = new PromptRecordingModel({
      intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')],
      conclude: [answers.draft('Open near campus.')],
    });
    const { graph } = processGraph(store, model, { knowledge: fakeKnowledge([rent]) });
    await graph.invoke({ nodeId: root.id }, config);
    expect(messagesOf(store, 'RAG').map((m) => m.conversation)).toEqual(['DECOMPOSE', 'CONCLUDE']);
    expect(count(model.prompts.conclude![0]!, '80 per square metre')).toBe(1);
  });
});
