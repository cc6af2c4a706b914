import { MemorySaver } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiModel } from '../../model/openai-model.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { type OpenAiServer, type RecordedRequest, startOpenAiServer } from '../../testing/openai-server.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { answers, pendingQuestion, reply } from './graph.test-helpers.ts';
import { createProcessNodeGraph } from './graph.ts';

let server: OpenAiServer;
afterEach(() => server.close());

/** Answers by the JSON schema the agent asked for, like a model that always complies. */
function bySchema(request: RecordedRequest) {
  const name = request.body.response_format?.json_schema?.name;
  if (name === 'intent_decision') return { content: JSON.stringify(answers.intent('CONCLUDE')) };
  if (name === 'conclusion_draft')
    return { content: JSON.stringify(answers.draft('结论：先做市场调研。')), chunkSize: 5 };
  return { status: 400, message: `unexpected schema ${name}` };
}

describe('node processing over HTTP', () => {
  it('should conclude a node through the real SDK, streaming the draft tokens', async () => {
    server = await startOpenAiServer({ respond: bySchema });
    const store = new InMemoryStore();
    const map = store.addMap({ problem: '开咖啡店？', language: 'zh' });
    const root = await store.createNode({ mapId: map.id, parentId: null, question: '开咖啡店？', goal: '决定' });
    const events = new RecordingEvents();
    const model = new OpenAiModel({ apiKey: 't', baseURL: server.baseURL, model: 'm', maxRetries: 0 });
    const graph = createProcessNodeGraph({ model, store, events }, { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'http-1' } };

    expect(pendingQuestion(await graph.invoke({ nodeId: root.id }, config)).question).toContain('结论');
    await graph.invoke(reply({ action: 'accept' }), config);

    expect(store.nodes.get(root.id)).toMatchObject({ conclusion: '结论：先做市场调研。', status: 'COMPLETED' });
    expect(events.tokens).toContain('先做市场调研');
    expect(events.tokens).not.toMatch(/[{}]|"conclusion"/);
    expect(server.requests.map((r) => r.body.stream ?? false)).toEqual([false, true]);
    expect(server.requests[0]?.body.messages?.[0]?.content).toContain('意图识别');
  });
});
