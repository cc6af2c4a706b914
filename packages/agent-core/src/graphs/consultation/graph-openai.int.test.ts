import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiModel } from '../../model/openai-model.ts';
import { type OpenAiServer, startOpenAiServer } from '../../testing/openai-server.ts';
import { decision, reply, setUpConsultation } from './graph.test-helpers.ts';

let server: OpenAiServer;
afterEach(() => server?.close());

async function modelAnswering(...contents: unknown[]) {
  server = await startOpenAiServer({
    replies: contents.map((c) => ({ content: typeof c === 'string' ? c : JSON.stringify(c), chunkSize: 6 })),
  });
  return new OpenAiModel({ apiKey: 'test', baseURL: server.baseURL, model: 'scripted-model', maxRetries: 0 });
}

describe('consultation graph over the openai SDK', () => {
  it('should stream the front reply as text, never its JSON, and repair a planner answer once', async () => {
    const model = await modelAnswering(
      reply('Welcome! Tell me about the shop.'),
      '{"next": "db_writer", "record": "not an object"}',
      decision({ record: { kind: 'FACT', content: 'has a shop', sourceMessageId: 'm1' } }),
    );
    const { conductor, held, streamed } = setUpConsultation(model);
    expect(await (await conductor.send('c1', 'I have a shop', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    expect(streamed.length).toBeGreaterThan(2);
    expect(streamed.join('')).toBe('Welcome! Tell me about the shop.');
    expect(held().records.map((r) => r.content)).toEqual(['has a shop']);
    const repair = server.requests[2]?.body.messages?.at(-1)?.content ?? '';
    expect(repair).toMatch(/^That answer is invalid/);
  });

  it('should fail the turn visibly, with the raw answer, when the planner answer fails twice', async () => {
    const model = await modelAnswering(reply('Sure.'), 'no json at all', '{"next": "nowhere"}');
    const { conductor, held } = setUpConsultation(model);
    const outcome = await (await conductor.send('c1', 'plan it', 'INTERRUPT')).turn;
    expect(outcome).toMatchObject({ status: 'failed', code: 'MODEL_UNPARSEABLE', raw: '{"next": "nowhere"}' });
    expect(held().records).toEqual([]);
    expect(held().messages.map((m) => m.text)).toEqual(['plan it', 'Sure.']);
  });
});
