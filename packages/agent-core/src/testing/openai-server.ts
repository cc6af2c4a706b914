import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instructedSchemaName } from '../model/structured-output.ts';

/** One scripted answer of the fake endpoint. */
export type ScriptedReply =
  /** Answers `content` (streamed in `chunkSize`-character pieces when the request streams). */
  | {
      content: string;
      delayMs?: number;
      chunkSize?: number;
      /** When streaming: wait this long before each piece after the first (a slow model writing). */
      chunkDelayMs?: number;
      /** When streaming: send this many characters, then go silent and never finish (a stalled stream). */
      stallAfterChars?: number;
      /** When streaming: send this many characters, then wait for `resume` before sending the rest. */
      pauseAfterChars?: number;
      resume?: Promise<unknown>;
      usage?: { promptTokens: number; completionTokens: number };
      /** Not streaming: answer as a call of this function with these arguments (and `content` as text). */
      toolCall?: { name: string; arguments: string };
    }
  /** Answers an HTTP error (429, 500, 503, …) with an OpenAI-style error body. */
  | { status: number; message?: string; retryAfterSeconds?: number; delayMs?: number }
  /** Answers 200 with a body that is not JSON (or a broken SSE stream). */
  | { garbage: string; delayMs?: number };

/** A request the fake endpoint received. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    [key: string]: unknown;
  };
}

/**
 * Request features the endpoint refuses with a 400 naming them, as the providers do: `responseFormat`
 * `json_schema` refuses JSON schemas the way DeepSeek does (and, like DeepSeek, `json_object` unless the
 * prompt says "json"); `all` refuses any `response_format`; `streamOptions` refuses `stream_options`;
 * `toolChoice` refuses a `tool_choice` other than `auto` or `none`.
 */
export interface Refusals {
  responseFormat?: 'json_schema' | 'all';
  streamOptions?: boolean;
  toolChoice?: boolean;
}

/**
 * The schema a structured request asks for: its JSON schema's name, or, where the schema went into the prompt
 * (json_object, or no response_format), the name the instruction gives; null for a chat request.
 */
export function schemaNameOf(request: RecordedRequest): string | null {
  const named = request.body.response_format?.json_schema?.name;
  if (named) return named;
  return instructedSchemaName((request.body.messages ?? []).map((m) => m.content).join('\n'));
}

/** Every refusal at once. */
export const REFUSE_ALL: Refusals = { responseFormat: 'all', streamOptions: true, toolChoice: true };

/** The message of the 400 the endpoint answers `request` with under `refusals`, or null to answer it. */
export function refusalOf(request: RecordedRequest, refusals: Refusals): string | null {
  const format = request.body.response_format?.type;
  if (format && refusals.responseFormat === 'all') return `response_format is not supported (got "${format}")`;
  if (format === 'json_schema' && refusals.responseFormat === 'json_schema')
    return 'This response_format type is unavailable now';
  const prompt = (request.body.messages ?? []).map((m) => m.content).join('\n');
  if (format === 'json_object' && refusals.responseFormat && !prompt.includes('json'))
    return "Prompt must contain the word 'json' in some form to use 'response_format' of type 'json_object'.";
  if (refusals.streamOptions && request.body.stream_options !== undefined)
    return 'stream_options: Extra inputs are not permitted';
  const choice = request.body.tool_choice;
  if (refusals.toolChoice && choice !== undefined && choice !== 'auto' && choice !== 'none')
    return `tool_choice must be "auto" or "none", got ${JSON.stringify(choice)}`;
  return null;
}

/** Options of {@link startOpenAiServer}. */
export interface OpenAiServerOptions {
  /** Request features refused with a 400 before any reply is used. */
  refuse?: Refusals;
  /** Replies used in order, one per request. */
  replies?: ScriptedReply[];
  /** Answers when the queue is empty; without it an empty queue answers 500 "no scripted reply". */
  respond?: (request: RecordedRequest) => ScriptedReply;
}

/** A running fake endpoint. */
export interface OpenAiServer {
  /** Base URL to give the `openai` SDK, ending in `/v1`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Appends replies to the queue. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');
let encoding: Promise<Encoding> | undefined;
const tokenizer = () => {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base');
  return encoding;
};

/** The answer's cap the request asked for (`max_tokens` or `max_completion_tokens`), if any. */
function capOf(request: RecordedRequest): number | null {
  const cap = request.body.max_completion_tokens ?? request.body.max_tokens;
  return typeof cap === 'number' ? cap : null;
}

/**
 * What a real endpoint would answer and bill: the prompt's tokens (the chat messages, counted like OpenAI
 * does), and the reply cut to the request's cap (`finish_reason: 'length'`) with its tokens.
 */
async function meterReply(request: RecordedRequest, content: string) {
  const { encodeChat, encode, decode } = await tokenizer();
  const messages = (request.body.messages ?? []).map((m) => ({
    role: m.role as 'system' | 'user' | 'assistant',
    content: m.content,
  }));
  const tokens = encode(content);
  const cap = capOf(request);
  const cut = cap !== null && tokens.length > cap;
  return {
    promptTokens: encodeChat(messages, 'gpt-4o').length,
    completionTokens: cut ? cap : tokens.length,
    content: cut ? decode(tokens.slice(0, cap)) : content,
    finish: cut ? 'length' : 'stop',
  };
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null): string {
  const body = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function answer(request: RecordedRequest, reply: ScriptedReply, res: ServerResponse): Promise<void> {
  if (reply.delayMs) await sleep(reply.delayMs);
  if (res.destroyed) return;
  if ('status' in reply) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
    res.writeHead(reply.status, headers).end(
      JSON.stringify({
        error: { message: reply.message ?? `scripted ${reply.status}`, type: 'scripted', code: null },
      }),
    );
    return;
  }
  if ('garbage' in reply) {
    const streaming = request.body.stream === true;
    res
      .writeHead(200, { 'content-type': streaming ? 'text/event-stream' : 'application/json' })
      .end(streaming ? `data: ${reply.garbage}\n\n` : reply.garbage);
    return;
  }
  const model = request.body.model ?? 'scripted';
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const metered = await meterReply(request, reply.content);
  const content = metered.content;
  const usage = {
    prompt_tokens: reply.usage?.promptTokens ?? metered.promptTokens,
    completion_tokens: reply.usage?.completionTokens ?? metered.completionTokens,
  };
  const usageBody = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  if (request.body.stream !== true) {
    const body = {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.toolCall ? null : content,
            refusal: null,
            ...(reply.toolCall
              ? { tool_calls: [{ id: `call_${id}`, type: 'function', function: reply.toolCall }] }
              : {}),
          },
          finish_reason: metered.finish,
          logprobs: null,
        },
      ],
      usage: usageBody,
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk(id, model, { role: 'assistant', content: '' }, null));
  const size = reply.chunkSize ?? 8;
  const until = reply.stallAfterChars ?? content.length;
  for (let at = 0; at < until; at += size) {
    if (reply.pauseAfterChars !== undefined && at >= reply.pauseAfterChars && at - size < reply.pauseAfterChars)
      await reply.resume;
    if (reply.chunkDelayMs && at > 0) await sleep(reply.chunkDelayMs);
    if (res.destroyed) return;
    res.write(chunk(id, model, { content: content.slice(at, Math.min(at + size, until)) }, null));
  }
  if (reply.stallAfterChars !== undefined) return; // silent until the client gives up

  res.write(chunk(id, model, {}, metered.finish));
  const options = request.body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage)
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: usageBody })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

/**
 * Starts a real OpenAI-compatible HTTP server on 127.0.0.1 (a free port) that answers
 * `POST /v1/chat/completions`, streaming (SSE) and not, with scripted replies, errors, delays and garbage.
 * Like a real endpoint it reports usage counted with a real tokenizer and honours an answer's cap
 * (`max_tokens` / `max_completion_tokens`), cutting the reply there.
 * Tests point the real `openai` SDK at `baseURL`, so the HTTP, streaming and parsing paths run for real.
 */
export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const queue = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
        return;
      }
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        res.writeHead(400).end('{"error":{"message":"request body is not JSON"}}');
        return;
      }
      const request: RecordedRequest = { path, headers: req.headers, body };
      requests.push(request);
      const refused = options.refuse && refusalOf(request, options.refuse);
      if (refused) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: refused, type: 'invalid_request_error', code: null } }));
        return;
      }
      const reply = queue.shift() ?? options.respond?.(request) ?? { status: 500, message: 'no scripted reply left' };
      // A client that hung up mid-answer (an aborted request): drop the socket, the test looks at the client.
      answer(request, reply, res).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
