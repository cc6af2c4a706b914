import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAiServer, REFUSE_ALL, type ScriptedReply, startOpenAiServer } from '../testing/openai-server.ts';
import { checkModel, formatModelCheck } from './model-check.ts';

const servers: OpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An endpoint answering 5 to everything: as a tool call when a tool is offered, else as JSON. */
async function endpoint(refuse = {}, respond?: () => ScriptedReply) {
  const server = await startOpenAiServer({
    refuse,
    respond:
      respond ??
      ((request) =>
        request.body.tools
          ? { content: '', toolCall: { name: 'give_answer', arguments: '{"answer":5}' } }
          : { content: '{"answer":5}', chunkSize: 4 }),
  });
  servers.push(server);
  return server;
}

describe('checkModel', () => {
  it('should find every feature on an endpoint that accepts them', async () => {
    const server = await endpoint();
    const check = await checkModel({ apiKey: 'k', baseURL: server.baseURL, model: 'm' });
    expect(check.usable).toBe(true);
    expect(check.rows.map((r) => [r.check, r.result, r.used])).toEqual([
      ['structured', 'ok', 'json_schema'],
      ['stream', 'ok', 'usage reported'],
      ['tool', 'ok', 'named'],
    ]);
    expect(check.rows[1]!.ms).toBeGreaterThanOrEqual(0);
  });

  it('should report the fallbacks of an endpoint that refuses everything, still usable', async () => {
    const server = await endpoint(REFUSE_ALL);
    const check = await checkModel({ apiKey: 'k', baseURL: server.baseURL, model: 'm' });
    expect(check.usable).toBe(true);
    expect(check.rows.map((r) => [r.check, r.result, r.used])).toEqual([
      ['structured', 'fallback', 'prompt'],
      ['stream', 'fallback', 'usage estimated'],
      ['tool', 'fallback', 'auto'],
    ]);
    const table = formatModelCheck(check, 'zh').split('\n');
    expect(table[0]).toMatch(/^端点\s+模型\s+检查\s+结果\s+采用/);
    expect(table).toHaveLength(4);
  });

  it('should check each per-agent endpoint and be unusable when one answers nothing', async () => {
    const good = await endpoint();
    const broken = await endpoint({}, () => ({ status: 404, message: 'The model `tiny` does not exist' }));
    const check = await checkModel({
      apiKey: 'k',
      baseURL: good.baseURL,
      model: 'm',
      agentModels: { front: 'tiny' },
      agentEndpoints: { front: { baseURL: broken.baseURL } },
    });
    expect(check.usable).toBe(false);
    const front = check.rows.filter((r) => r.model === 'tiny');
    expect(front.map((r) => r.result)).toEqual(['failed', 'failed', 'failed']);
    expect(front[0]!.used).toContain('does not exist');
    expect(front[0]!.agents).toEqual(['front']);
    expect(check.rows.filter((r) => r.model === 'm').map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);
  });
});
