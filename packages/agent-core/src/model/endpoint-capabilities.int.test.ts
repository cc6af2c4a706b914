import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAgentError } from '../errors/agent-error.ts';
import { type OpenAiServer, REFUSE_ALL, type Refusals, startOpenAiServer } from '../testing/openai-server.ts';
import { CapabilityRegistry } from './endpoint-capabilities.ts';
import { MeteredModel } from './metered-model.ts';
import { OpenAiModel } from './openai-model.ts';

const Answer = z.object({ intent: z.enum(['DECOMPOSE', 'CONCLUDE']), reason: z.string() });
const ask = {
  agent: 'intent' as const,
  messages: [{ role: 'user' as const, content: '下一步？' }],
  schema: Answer,
  schemaName: 'intent_decision',
};
const answer = { content: '{"intent":"CONCLUDE","reason":"small"}' };

const servers: OpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function refusing(refuse: Refusals) {
  const server = await startOpenAiServer({ refuse, respond: () => answer });
  servers.push(server);
  const logged: string[] = [];
  const registry = new CapabilityRegistry((line) => logged.push(line));
  const model = new OpenAiModel({ apiKey: 'k', baseURL: server.baseURL, model: 'm', maxRetries: 0 }, registry);
  return { server, model, logged, registry };
}

describe('capabilities found, not configured', () => {
  it('should fall back from json_schema to json_object with the schema and "json" in the prompt, and remember it', async () => {
    const { server, model, logged } = await refusing({ responseFormat: 'json_schema' });
    expect((await model.structured(ask)).value.intent).toBe('CONCLUDE');
    await model.structured(ask);
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
    const prompt = server.requests[1]?.body.messages?.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('json');
    expect(prompt).toContain('"intent_decision"');
    expect(model.capabilities().structuredOutput).toBe('json_object');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('response_format');
  });

  it('should fall back when a server that turns schemas into grammars fails the schema', async () => {
    const server = await startOpenAiServer({
      replies: [{ status: 400, message: 'Grammar compilation failed for the given JSON schema' }, answer],
    });
    servers.push(server);
    const model = new OpenAiModel(
      { apiKey: 'k', baseURL: server.baseURL, model: 'm', maxRetries: 0 },
      new CapabilityRegistry(() => {}),
    );
    expect((await model.structured(ask)).value.intent).toBe('CONCLUDE');
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object']);
  });

  it('should fall back to a plain prompt when no response_format is accepted', async () => {
    const { server, model } = await refusing({ responseFormat: 'all' });
    expect((await model.structured(ask)).value.reason).toBe('small');
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object', undefined]);
    expect(model.capabilities().structuredOutput).toBe('prompt');
  });

  it('should stream without stream_options and count the tokens locally, marked estimated', async () => {
    const { server, model } = await refusing({ streamOptions: true });
    const metered = new MeteredModel(model);
    const pieces: string[] = [];
    const first = await metered.chat({
      agent: 'front',
      messages: [{ role: 'user', content: '你好' }],
      onToken: (t) => pieces.push(t),
    });
    expect(first.text).toBe(answer.content);
    expect(pieces.join('')).toBe(answer.content);
    expect(first.usage.estimated).toBe(true);
    expect(first.usage.completionTokens).toBeGreaterThan(5);
    expect(metered.usage).toMatchObject({ estimated: true });
    expect(metered.usage.promptTokens).toBeGreaterThan(0);
    await model.chat({ agent: 'front', messages: [], onToken: () => {} });
    expect(server.requests.map((r) => r.body.stream_options !== undefined)).toEqual([true, false, false]);
    expect(model.capabilities().streamUsage).toBe('estimated');
  });

  it('should call a tool with tool_choice auto where naming it is refused, and validate its arguments', async () => {
    const server = await startOpenAiServer({
      refuse: { toolChoice: true },
      respond: () => ({ content: '', toolCall: { name: 'decide', arguments: answer.content } }),
    });
    servers.push(server);
    const model = new OpenAiModel(
      { apiKey: 'k', baseURL: server.baseURL, model: 'm', maxRetries: 0 },
      new CapabilityRegistry(() => {}),
    );
    const call = { agent: 'intent' as const, messages: [], tool: { name: 'decide', description: 'd', schema: Answer } };
    expect((await model.toolCall(call)).value.intent).toBe('CONCLUDE');
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual([
      { type: 'function', function: { name: 'decide' } },
      'auto',
    ]);
    expect(model.capabilities().toolChoice).toBe('auto');
  });

  it('should complete structured and streamed calls on an endpoint that refuses everything', async () => {
    const { model } = await refusing(REFUSE_ALL);
    const streamed = await model.structured({ ...ask, onToken: () => {}, readable: { reason: String } });
    expect(streamed.value.reason).toBe('small');
    expect(model.capabilities()).toEqual({ structuredOutput: 'prompt', streamUsage: 'estimated', toolChoice: 'named' });
  });

  it('should start from the configured overrides and not fall back on a 400 that names no feature', async () => {
    const server = await startOpenAiServer({ replies: [{ status: 400, message: 'Model Not Exist' }] });
    servers.push(server);
    const registry = new CapabilityRegistry(() => {});
    const config = { apiKey: 'k', baseURL: server.baseURL, model: 'm', maxRetries: 0 };
    const model = new OpenAiModel({ ...config, capabilities: { structuredOutput: 'json_object' } }, registry);
    const error = await model.structured(ask).catch((e: unknown) => e);
    expect(isAgentError(error) && error.code).toBe('MODEL_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body.response_format?.type).toBe('json_object');
  });

  it("should send an agent's calls to its own endpoint and model", async () => {
    const main = await startOpenAiServer({ respond: () => answer });
    const local = await startOpenAiServer({ refuse: REFUSE_ALL, respond: () => answer });
    servers.push(main, local);
    const model = new OpenAiModel(
      {
        apiKey: 'hosted',
        baseURL: main.baseURL,
        model: 'big',
        agentModels: { front: 'small' },
        agentEndpoints: { front: { baseURL: local.baseURL, apiKey: 'local' } },
        maxRetries: 0,
      },
      new CapabilityRegistry(() => {}),
    );
    await model.chat({ agent: 'front', messages: [], onToken: () => {} });
    await model.structured(ask);
    expect(local.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([
      ['small', 'Bearer local'],
      ['small', 'Bearer local'],
    ]);
    expect(main.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([['big', 'Bearer hosted']]);
    expect(model.capabilities('front').streamUsage).toBe('estimated');
    expect(model.capabilities().streamUsage).toBe('reported');
  });
});
