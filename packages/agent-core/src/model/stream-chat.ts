import type OpenAI from 'openai';
import { AgentError } from '../errors/agent-error.ts';
import type { ChatRequest, ModelUsage } from '../ports/model-port.ts';

type StreamBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

/**
 * Streams one chat completion, passing each piece of text to `request.onToken` and appending it to
 * `streamed.text`. Returns the usage the stream ended with, or null when the endpoint reported none. The SDK's
 * timeout covers the wait for the response to start; a stream that stalls half-way would otherwise hold the
 * run (and its node) forever, so no chunk for `idleMs` ends it as MODEL_TIMEOUT (the text so far kept).
 */
export async function streamChat(
  client: OpenAI,
  body: StreamBody,
  request: ChatRequest,
  idleMs: number,
  streamed: { text: string },
): Promise<ModelUsage | null> {
  const stall = new AbortController();
  const abortOnCaller = () => stall.abort();
  request.signal?.addEventListener('abort', abortOnCaller, { once: true });
  let stalled = false;
  const arm = () =>
    setTimeout(() => {
      stalled = true;
      stall.abort();
    }, idleMs);
  let timer = arm();
  let usage: ModelUsage | null = null;
  try {
    const stream = await client.chat.completions.create(body, { signal: stall.signal });
    for await (const part of stream) {
      clearTimeout(timer);
      timer = arm();
      const piece = part.choices[0]?.delta?.content;
      if (piece) {
        streamed.text += piece;
        request.onToken?.(piece);
      }
      if (part.usage)
        usage = { promptTokens: part.usage.prompt_tokens, completionTokens: part.usage.completion_tokens };
    }
    // The SDK ends an aborted stream quietly: an abort must not pass for a complete answer.
    if (stall.signal.aborted) throw new Error('stream aborted');
    return usage;
  } catch (error) {
    if (stalled && !request.signal?.aborted) {
      throw new AgentError('MODEL_TIMEOUT', `the model stopped streaming for ${idleMs} ms`, {
        cause: error,
        raw: streamed.text,
      });
    }
    if (request.signal?.aborted) throw new AgentError('CANCELLED', 'model call cancelled', { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', abortOnCaller);
  }
}
