import { AgentError } from '../errors/agent-error.ts';
import type {
  ChatRequest,
  ChatResult,
  ModelPort,
  OfflineHint,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';
import { OFFLINE_LABEL, offlineAnswer } from './offline-answers.ts';
import { readableText } from './readable-stream.ts';

const ZERO = { promptTokens: 0, completionTokens: 0 };

function hintOf(request: ChatRequest): OfflineHint {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  return request.offlineHint ?? { language: 'en', question: lastUser?.content.slice(0, 200) ?? '' };
}

/**
 * A {@link ModelPort} that needs no model: deterministic, schema-valid answers for every agent built from
 * the request's `offlineHint`, labelled as offline. It makes every flow work with no key and spends no tokens;
 * what the person wrote (problem, goal, constraints, corrections) is restated, never dropped.
 */
export class OfflineModel implements ModelPort {
  readonly offline = true;
  readonly label = 'Built-in offline assistant (no AI model connected)';

  async chat(request: ChatRequest): Promise<ChatResult> {
    const hint = hintOf(request);
    const text = `${OFFLINE_LABEL[hint.language]}${hint.question}`;
    for (const piece of text.match(/.{1,8}/gsu) ?? []) request.onToken?.(piece);
    return { text, usage: ZERO, model: 'offline' };
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const answer = offlineAnswer(request.agent, hintOf(request), request.schemaName);
    const parsed = request.schema.safeParse(answer);
    const raw = JSON.stringify(answer);
    if (!parsed.success)
      throw new AgentError(
        'MODEL_UNPARSEABLE',
        `the offline model has no valid ${request.schemaName} answer for agent ${request.agent}`,
        { raw },
      );
    if (request.onToken && request.readable) {
      const text = readableText(parsed.data, request.readable);
      for (const piece of text.match(/.{1,8}/gsu) ?? []) request.onToken(piece);
    }
    return { text: raw, value: parsed.data, usage: ZERO, model: 'offline', repaired: false };
  }
}
