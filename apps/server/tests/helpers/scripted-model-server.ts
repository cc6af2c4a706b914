import { OpenAiModel } from '@thinkingmap/agent-core';
import {
  type OpenAiServer,
  type RecordedRequest,
  type Refusals,
  type ScriptedReply,
  schemaNameOf,
  startOpenAiServer,
} from '@thinkingmap/agent-core/testing';

/** What a scripted model answers for one agent schema; `prompt` is every message of the request joined. */
export type SchemaAnswer = (prompt: string, call: number) => ScriptedReply | object;

/**
 * A local OpenAI-compatible server that answers each agent by the JSON schema it asks for, plus the real
 * `openai` SDK model pointed at it. Replies queued with `server.enqueue` win over the script.
 */
export async function startScriptedModel(
  script: Record<string, SchemaAnswer>,
  options: {
    /** How long the model may stay silent (default 2 s). */
    timeoutMs?: number;
    /** Request features the endpoint refuses, as providers do (see `Refusals`). */
    refuse?: Refusals;
  } = {},
) {
  const calls = new Map<string, number>();
  const respond = (request: RecordedRequest): ScriptedReply => {
    const name = schemaNameOf(request) ?? 'text';
    const n = (calls.get(name) ?? 0) + 1;
    calls.set(name, n);
    const prompt = (request.body.messages ?? []).map((m) => m.content).join('\n');
    const answer = script[name]?.(prompt, n);
    if (!answer) return { status: 400, message: `no scripted answer for ${name}` };
    return 'content' in answer || 'status' in answer || 'garbage' in answer
      ? (answer as ScriptedReply)
      : { content: JSON.stringify(answer), chunkSize: 8 };
  };
  const server: OpenAiServer = await startOpenAiServer({ respond, refuse: options.refuse });
  const model = new OpenAiModel({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    model: 'scripted',
    maxRetries: 2,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  return { server, model, calls };
}
