import { CREATE_MAP, CREATE_NODE, INBOX, PROCESS_NODE, REPLY_TO_AGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion } from './helpers/agent-driver.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

describe.each(providers)('the viewer’s inbox of pending questions on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    model = await startScriptedModel({
      clarify_question: (prompt) => ({
        question: prompt.includes('Hire') ? 'Full or part time?' : 'Which city?',
        why: 'it changes the answer',
      }),
    });
    server = await startTestServer(provider, { model: model.model, runSettings: { questionTtlMs: 60_000 } });
  });
  afterAll(async () => {
    await server?.app.engine.idle();
    await server?.close();
    await model?.server.close();
  });

  /** A map with one root question on which an agent asks the person something. */
  async function mapAsking(client: ReturnType<TestServer['connect']>['client'], question: string) {
    const map = await call(client, CREATE_MAP, { input: { title: question } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
    await call(client, PROCESS_NODE, { nodeId: root.id, intent: 'CLARIFY' });
    return { map, root, question: await waitForQuestion(client, map.id, { kind: 'clarify' }) };
  }

  it('should list the questions waiting on all of the viewer’s maps, oldest first, and none of anyone else’s', async () => {
    const alice = server.connect(server.alice.token).client;
    const bob = server.connect(server.bob.token).client;
    expect((await call(alice, INBOX)).pendingQuestions).toEqual([]);

    const city = await mapAsking(alice, 'Open a café?');
    const hire = await mapAsking(alice, 'Hire a barista?');
    const bobs = await mapAsking(bob, 'Bob’s own question');

    const inbox = await call(alice, INBOX);
    expect(inbox.id).toBe(server.alice.id);
    expect(inbox.pendingQuestions.map((q) => [q.mapId, q.nodeId, q.question])).toEqual([
      [city.map.id, city.root.id, 'Which city?'],
      [hire.map.id, hire.root.id, 'Full or part time?'],
    ]);
    expect((await call(bob, INBOX)).pendingQuestions.map((q) => q.requestId)).toEqual([bobs.question.requestId]);

    // An answered question leaves the inbox.
    await call(alice, REPLY_TO_AGENT, { input: { requestId: city.question.requestId, text: 'Shanghai' } });
    const after = await eventually(async () => {
      const { pendingQuestions } = await call(alice, INBOX);
      return pendingQuestions.every((q) => q.requestId !== city.question.requestId) ? pendingQuestions : null;
    }, 'the answered question to leave the inbox');
    expect(after.map((q) => q.requestId)).not.toContain(city.question.requestId);
    expect(after.map((q) => q.requestId)).toContain(hire.question.requestId);
  });
});
