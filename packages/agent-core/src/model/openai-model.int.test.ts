import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isAgentError } from '../errors/agent-error.ts';
import { type OpenAiServer, type ScriptedReply, startOpenAiServer } from '../testing/openai-server.ts';
import { OpenAiModel } from './openai-model.ts';

const Answer = z.object({ intent: z.enum(['DECOMPOSE', 'CONCLUDE']), reason: z.string() });
const ask = {
  agent: 'intent' as const,
  messages: [{ role: 'user' as const, content: 'What now?' }],
  schema: Answer,
  schemaName: 'intent_decision',
};

let server: OpenAiServer;
afterEach(() => server?.close());

async function modelAnswering(replies: ScriptedReply[], options: { timeoutMs?: number; maxRetries?: number } = {}) {
  server = await startOpenAiServer({ replies });
  return new OpenAiModel({
    apiKey: 'test',
    baseURL: server.baseURL,
    model: 'scripted-model',
    agentModels: { conclude: 'big-model' },
    maxRetries: 0,
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAgentError(error)) throw new Error(`expected an AgentError, got ${String(error)}`);
  return error;
}

describe('OpenAiModel', () => {
  it('should stream tokens in order and report usage', async () => {
    const model = await modelAnswering([
      { content: 'Hello, thinking map!', chunkSize: 4, usage: { promptTokens: 11, completionTokens: 5 } },
    ]);
    const pieces: string[] = [];
    const result = await model.chat({
      agent: 'clarify',
      messages: [{ role: 'user', content: 'hi' }],
      onToken: (t) => pieces.push(t),
    });
    expect(result.text).toBe('Hello, thinking map!');
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(result.text);
    expect(result.usage).toEqual({ promptTokens: 11, completionTokens: 5 });
    expect(server.requests[0]?.body.stream).toBe(true);
  });

  it('should use the per-agent model override', async () => {
    const model = await modelAnswering([{ content: 'ok' }, { content: 'ok' }]);
    await model.chat({ agent: 'conclude', messages: [{ role: 'user', content: 'x' }] });
    await model.chat({ agent: 'intent', messages: [{ role: 'user', content: 'x' }] });
    expect(server.requests.map((r) => r.body.model)).toEqual(['big-model', 'scripted-model']);
  });

  it('should send the zod schema as a JSON schema and parse the answer', async () => {
    const model = await modelAnswering([{ content: '```json\n{"intent":"DECOMPOSE","reason":"big"}\n```' }]);
    const result = await model.structured(ask);
    expect(result.value).toEqual({ intent: 'DECOMPOSE', reason: 'big' });
    expect(result.repaired).toBe(false);
    expect(server.requests[0]?.body.response_format?.json_schema?.name).toBe('intent_decision');
  });

  it('should repair an invalid answer once by sending the error back', async () => {
    const model = await modelAnswering([
      { content: '{"intent":"MAYBE"}' },
      { content: '{"intent":"CONCLUDE","reason":"fixed"}' },
    ]);
    const result = await model.structured(ask);
    expect(result.value.intent).toBe('CONCLUDE');
    expect(result.repaired).toBe(true);
    const repairCall = server.requests[1]?.body.messages ?? [];
    expect(repairCall.at(-2)).toMatchObject({ role: 'assistant', content: '{"intent":"MAYBE"}' });
    expect(repairCall.at(-1)?.content).toContain('invalid');
  });

  it('should stream the readable text of a structured answer, not its JSON, and a repair after a blank line', async () => {
    const model = await modelAnswering([
      { content: '{"reason":"too big to answer at once","intent":"MAYBE"}', chunkSize: 3 },
      { content: '{"reason":"split it first","intent":"DECOMPOSE"}', chunkSize: 3 },
    ]);
    const pieces: string[] = [];
    const result = await model.structured({
      ...ask,
      readable: { reason: (value) => (typeof value === 'string' ? value : '') },
      onToken: (t) => pieces.push(t),
    });
    expect(result.value).toEqual({ intent: 'DECOMPOSE', reason: 'split it first' });
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.join('')).toBe('too big to answer at once\n\nsplit it first');
    expect(server.requests.map((r) => r.body.stream)).toEqual([true, true]);
  });

  it('should not stream a structured answer that has no readable fields', async () => {
    const model = await modelAnswering([{ content: '{"intent":"CONCLUDE","reason":"small"}' }]);
    const pieces: string[] = [];
    await model.structured({ ...ask, onToken: (t) => pieces.push(t) });
    expect(pieces).toEqual([]);
    expect(server.requests[0]?.body.stream ?? false).toBe(false);
  });

  it('should fail as MODEL_UNPARSEABLE keeping the raw text when the repair fails too', async () => {
    const model = await modelAnswering([{ content: 'not json at all' }, { content: '我不知道' }]);
    const error = await failureOf(model.structured(ask));
    expect(error.code).toBe('MODEL_UNPARSEABLE');
    expect(error.raw).toBe('我不知道');
    expect(server.requests).toHaveLength(2);
  });

  it('should time out as MODEL_TIMEOUT', async () => {
    const model = await modelAnswering([{ content: 'late', delayMs: 500 }], { timeoutMs: 100 });
    expect((await failureOf(model.chat({ agent: 'intent', messages: [] }))).code).toBe('MODEL_TIMEOUT');
  });

  it('should end a stream that stalls half-way as MODEL_TIMEOUT, keeping the text so far', async () => {
    const model = await modelAnswering(
      [{ content: 'The first half, then silence', chunkSize: 5, stallAfterChars: 10 }],
      {
        timeoutMs: 300,
      },
    );
    const pieces: string[] = [];
    const started = Date.now();
    const error = await failureOf(model.chat({ agent: 'conclude', messages: [], onToken: (t) => pieces.push(t) }));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toContain('stopped streaming');
    expect(error.raw).toBe('The first ');
    expect(pieces.join('')).toBe('The first ');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('should stream the first part, wait while the test server holds the stream, then finish it', async () => {
    let release = () => {};
    const resume = new Promise<void>((resolve) => (release = resolve));
    const model = await modelAnswering([{ content: 'Written in two goes', chunkSize: 4, pauseAfterChars: 8, resume }]);
    const pieces: string[] = [];
    const answer = model.chat({ agent: 'conclude', messages: [], onToken: (t) => pieces.push(t) });
    await vi.waitFor(() => expect(pieces.join('')).toBe('Written '));
    release();
    expect((await answer).text).toBe('Written in two goes');
  });

  it('should stop a stream when the caller aborts, as CANCELLED', async () => {
    const model = await modelAnswering([{ content: 'never finished', stallAfterChars: 5 }], { timeoutMs: 5_000 });
    const controller = new AbortController();
    // Abort once the stream has started: the first piece of text arrived.
    const error = await failureOf(
      model.chat({ agent: 'conclude', messages: [], onToken: () => controller.abort(), signal: controller.signal }),
    );
    expect(error.code).toBe('CANCELLED');
  });

  it('should retry a 429 and then a 500 with backoff and succeed', async () => {
    const model = await modelAnswering([{ status: 429 }, { status: 500 }, { content: 'finally' }], { maxRetries: 2 });
    expect((await model.chat({ agent: 'intent', messages: [] })).text).toBe('finally');
    expect(server.requests).toHaveLength(3);
  });

  it('should give up as MODEL_RATE_LIMITED after the last retry', async () => {
    const model = await modelAnswering([{ status: 429 }, { status: 429 }], { maxRetries: 1 });
    expect((await failureOf(model.chat({ agent: 'intent', messages: [] }))).code).toBe('MODEL_RATE_LIMITED');
  });

  it('should fail as MODEL_UNAVAILABLE on garbage instead of hanging or crashing', async () => {
    const model = await modelAnswering([{ garbage: '<html>bad gateway' }]);
    const error = await failureOf(model.chat({ agent: 'intent', messages: [], onToken: () => {} }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
  });

  it('should stop when the caller aborts, as CANCELLED', async () => {
    const model = await modelAnswering([{ content: 'slow', delayMs: 1000 }]);
    const controller = new AbortController();
    const answer = failureOf(model.chat({ agent: 'intent', messages: [], signal: controller.signal }));
    // Abort while the endpoint is still thinking about the request it received.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort();
    expect((await answer).code).toBe('CANCELLED');
  });
});
