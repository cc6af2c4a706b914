import type { KnowledgePort } from '@thinkingmap/agent-core';
import { CREATE_MAP, CREATE_NODE, NODE, POST_MESSAGE, PROCESS_NODE } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

/** The intent each question gets from the scripted model, by a word of its question. */
const intentOf = (prompt: string) =>
  prompt.includes('Explore the rent')
    ? ['EXPLORE', 'CONCLUDE']
    : prompt.includes('Split me')
      ? ['DECOMPOSE']
      : ['CONCLUDE'];

/** A knowledge port whose every search finds one passage about rent. */
function rentKnowledge(): KnowledgePort & { searches: number } {
  const port = {
    name: 'wiki',
    searches: 0,
    async search() {
      port.searches += 1;
      return [
        {
          title: 'Rent near campus',
          content: 'Shops near the university rent for 80 per square metre.',
          score: 0.9,
          sources: [{ title: 'rent.md:3-5', uri: 'file://rent.md' }],
        },
      ];
    },
  };
  return port;
}

/** The prompt (every message joined) of each request whose JSON schema is `name`. */
const promptsOf = (model: Awaited<ReturnType<typeof startScriptedModel>>, name: string) =>
  model.server.requests
    .filter((r) => r.body.response_format?.json_schema?.name === name)
    .map((r) => (r.body.messages ?? []).map((m) => m.content).join('\n'));

describe.each(providers)('what each agent reads, through the API on %s', (provider) => {
  let server: TestServer;
  let client: Client;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  const knowledge = rentKnowledge();

  beforeAll(async () => {
    const intents = new Map<string, number>();
    model = await startScriptedModel({
      intent_decision: (prompt) => {
        const question = /## Current question\n(.*)/.exec(prompt)?.[1] ?? '';
        const n = intents.get(question) ?? 0;
        intents.set(question, n + 1);
        const options = intentOf(question);
        return { intent: options[Math.min(n, options.length - 1)], reason: 'scripted', confidence: 0.9 };
      },
      strategy_decision: () => ({ strategy: 'PARALLEL', factors: [{ factor: 'f', assessment: 'a' }], reason: 'r' }),
      sub_question_proposal: () => ({
        rationale: 'two parts',
        subQuestions: [{ key: 'q1', question: 'Part one?', goal: 'one', dependsOn: [] }],
      }),
      conclusion_draft: () => ({ kind: 'ANALYTICAL', conclusion: 'Drafted.', keyPoints: ['k'], confidence: 0.5 }),
    });
    server = await startTestServer(provider, { model: model.model, knowledge });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  /** A root node with one message from the person in each of its conversations. */
  async function rootTalkedAbout(question: string) {
    const map = await call(client, CREATE_MAP, { input: { title: question } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
    const say = (conversation: 'DECOMPOSE' | 'CONCLUDE', content: string) =>
      call(client, POST_MESSAGE, { input: { nodeId: root.id, conversation, content } });
    await say('DECOMPOSE', `About splitting ${question}: by district.`);
    await say('CONCLUDE', `About concluding ${question}: rent under 3k.`);
    return { mapId: map.id, rootId: root.id };
  }

  /** The text under a prompt's `## heading`, up to the next heading. */
  const sectionOf = (prompt: string, heading: string) => prompt.split(`## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';

  it('should give the conclusion agent both conversations, its own first and each labelled, and intent recognition both', async () => {
    const { mapId, rootId } = await rootTalkedAbout('Conclude me');
    for (let i = 1; i <= 11; i += 1)
      await call(client, POST_MESSAGE, { input: { nodeId: rootId, conversation: 'CONCLUDE', content: `note ${i}` } });
    await call(client, PROCESS_NODE, { nodeId: rootId });
    await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: rootId });
    const [intent] = promptsOf(model, 'intent_decision').filter((p) => p.includes('Conclude me'));
    expect(intent).toContain('About splitting Conclude me');
    expect(intent).toContain('note 11');
    const [conclude] = promptsOf(model, 'conclusion_draft').filter((p) => p.includes('Conclude me'));
    // What the person said in the decompose conversation reaches the conclusion, under its own heading.
    expect(sectionOf(conclude!, 'Conversation about splitting this question')).toContain(
      '[USER] About splitting Conclude me: by district.',
    );
    expect(conclude!.indexOf('## Conversation about its conclusion')).toBeLessThan(
      conclude!.indexOf('## Conversation about splitting this question'),
    );
    // The last 10 of its 12 messages, and the summary of the whole: counts by role and the time range.
    const own = sectionOf(conclude!, 'Conversation about its conclusion');
    expect(own).toContain('note 2\n');
    expect(own).not.toContain('rent under 3k');
    expect(own).toMatch(
      /^12 messages \(12 from the person, 0 from the assistant, 0 from the system; \d{4}-\d\d-\d\d \d\d:\d\d – \d{4}-\d\d-\d\d \d\d:\d\d\); showing the last 10, 2 older ones omitted\./,
    );
  });

  it('should give decomposition both conversations, its own first and each labelled', async () => {
    const { mapId, rootId } = await rootTalkedAbout('Split me');
    await call(client, PROCESS_NODE, { nodeId: rootId });
    await waitForQuestion(client, mapId, { kind: 'review-decomposition', nodeId: rootId });
    const prompts = [...promptsOf(model, 'strategy_decision'), ...promptsOf(model, 'sub_question_proposal')].filter(
      (p) => p.includes('Split me'),
    );
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(sectionOf(prompt, 'Conversation about splitting this question')).toContain(
        '[USER] About splitting Split me: by district.',
      );
      expect(sectionOf(prompt, 'Conversation about its conclusion')).toContain(
        '[USER] About concluding Split me: rent under 3k.',
      );
      expect(prompt.indexOf('## Conversation about splitting this question')).toBeLessThan(
        prompt.indexOf('## Conversation about its conclusion'),
      );
    }
  });

  it('should post retrieved knowledge once per run and put it once in the conclusion prompt, after exploring too', async () => {
    const { mapId, rootId } = await rootTalkedAbout('Explore the rent');
    await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Which street?' } });
    const before = knowledge.searches;
    await call(client, PROCESS_NODE, { nodeId: rootId });
    await waitForQuestion(client, mapId, { kind: 'review-conclusion', nodeId: rootId });
    expect(knowledge.searches - before).toBe(2);
    const node = await call(client, NODE, { id: rootId });
    const rag = node.conversations.flatMap((c) => c.messages).filter((m) => m.kind === 'RAG');
    expect(rag).toHaveLength(1);
    const [conclude] = promptsOf(model, 'conclusion_draft').filter((p) => p.includes('Explore the rent'));
    expect(conclude!.split('80 per square metre')).toHaveLength(2);
  });
});
