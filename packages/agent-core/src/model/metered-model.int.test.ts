import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAgentError } from '../errors/agent-error.ts';
import { type OpenAiServer, type ScriptedReply, startOpenAiServer } from '../testing/openai-server.ts';
import { estimatePromptTokens } from './estimate-tokens.ts';
import { InMemoryTokenLedger } from './in-memory-token-ledger.ts';
import { MeteredModel } from './metered-model.ts';
import { OpenAiModel } from './openai-model.ts';
import { jsonInstruction } from './structured-output.ts';

const Answer = z.object({ intent: z.enum(['DECOMPOSE', 'CONCLUDE']), reason: z.string() });
const messages = [{ role: 'user' as const, content: 'What should we do with the second café?' }];
const ask = { agent: 'intent' as const, messages, schema: Answer, schemaName: 'intent_decision' };
const answer = JSON.stringify({ intent: 'CONCLUDE', reason: 'specific enough' });

let server: OpenAiServer;
afterEach(() => server?.close());

async function metered(replies: ScriptedReply[], ledger: InMemoryTokenLedger) {
  server = await startOpenAiServer({ replies });
  const inner = new OpenAiModel({ apiKey: 'test', baseURL: server.baseURL, model: 'scripted', maxRetries: 0 });
  return new MeteredModel(inner, { ledger });
}

describe('MeteredModel over the OpenAI-compatible endpoint', () => {
  it("should cap the answer's max_tokens to what the budget leaves after the prompt's estimate", async () => {
    const ledger = new InMemoryTokenLedger(1000);
    const model = await metered([{ content: answer }], ledger);
    await model.structured(ask);
    const sent = server.requests[0]!.body;
    const estimate = await estimatePromptTokens(
      [...messages, jsonInstruction(Answer, ask.schemaName)],
      JSON.stringify((sent.response_format as { json_schema: { schema: unknown } }).json_schema.schema),
    );
    expect(sent.max_tokens).toBe(1000 - estimate);
    // What the endpoint billed is what was spent, and nothing stays reserved.
    expect(ledger).toMatchObject({ reserved: 0, spent: model.usage.promptTokens + model.usage.completionTokens });
    expect(model.unsettled).toEqual({ promptTokens: 0, completionTokens: 0 });
    expect(model.usage.promptTokens).toBeLessThanOrEqual(estimate);
  });

  it('should make no call and say what was spent, the budget and that the call was not made', async () => {
    const ledger = new InMemoryTokenLedger(1200);
    ledger.spent = 1100;
    const model = await metered([{ content: answer }], ledger);
    const error = await model.structured(ask).catch((e: unknown) => e);
    expect(isAgentError(error, 'BUDGET_EXHAUSTED')).toBe(true);
    expect((error as Error).message).toMatch(
      /^The map's token budget is used up: 1,100 of 1,200 tokens spent\. This model call needs about \d+ tokens for its prompt plus room for an answer, so it was not made\./,
    );
    expect(server.requests).toHaveLength(0);
    const zh = new InMemoryTokenLedger(60, 'zh');
    const inner = new OpenAiModel({ apiKey: 'test', baseURL: server.baseURL, model: 'scripted', maxRetries: 0 });
    const refused = await new MeteredModel(inner, { ledger: zh }).chat({ agent: 'intent', messages }).catch((e) => e);
    expect(server.requests).toHaveLength(0);
    expect((refused as Error).message).toMatch(/^导图的 token 预算不够了：预算 60，已用 0。.*所以没有调用模型/);
  });

  it('should count what failed calls spent: both attempts of an unparseable answer, and a failed call', async () => {
    const ledger = new InMemoryTokenLedger(100_000);
    const model = await metered(
      [{ content: 'not json' }, { content: '{"intent": "MAYBE"}' }, { status: 400, message: 'bad request' }],
      ledger,
    );
    await expect(model.structured(ask)).rejects.toMatchObject({ code: 'MODEL_UNPARSEABLE' });
    const afterTwo = ledger.spent;
    expect(afterTwo).toBeGreaterThan(2 * (await estimatePromptTokens(messages)));
    await expect(model.chat({ agent: 'intent', messages })).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    // The failed call's prompt counts, by its estimate.
    expect(ledger.spent - afterTwo).toBe(await estimatePromptTokens(messages));
    expect(ledger.reserved).toBe(0);
    expect(model.usage.promptTokens + model.usage.completionTokens).toBe(ledger.spent);
  });

  it('should let the endpoint cut a streamed answer at the cap, and count what it streamed', async () => {
    const ledger = new InMemoryTokenLedger(0);
    const prompt = await estimatePromptTokens(messages);
    ledger.spent = -(prompt + 70);
    const model = await metered([{ content: 'word '.repeat(500) }], ledger);
    const pieces: string[] = [];
    const result = await model.chat({ agent: 'intent', messages, onToken: (t) => pieces.push(t) });
    expect(server.requests[0]!.body.max_tokens).toBe(70);
    expect(result.usage.completionTokens).toBe(70);
    expect(ledger.spent).toBeLessThanOrEqual(0);
  });
});
