import { AgentError } from '../errors/agent-error.ts';
import type {
  AgentName,
  ChatRequest,
  ChatResult,
  ModelPort,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';

/**
 * A {@link ModelPort} that answers from per-agent queues, for graph tests without HTTP. Each answer is
 * validated against the request's schema like a real answer; an agent with an empty queue fails the call
 * loudly, so a test notices an unexpected model call. `calls` lists the agents called, in order.
 */
export class ScriptedModel implements ModelPort {
  readonly offline = false;
  readonly label = 'scripted model';
  readonly calls: AgentName[] = [];

  constructor(private readonly answers: Partial<Record<AgentName, unknown[]>>) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const text = String(this.next(request.agent));
    request.onToken?.(text);
    return { text, model: 'scripted', usage: { promptTokens: 10, completionTokens: 5 } };
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const answer = this.next(request.agent);
    const parsed = request.schema.safeParse(answer);
    if (!parsed.success)
      throw new AgentError('MODEL_UNPARSEABLE', `scripted ${request.agent} answer fails ${request.schemaName}`, {
        raw: JSON.stringify(answer),
      });
    request.onToken?.(JSON.stringify(answer));
    return {
      value: parsed.data,
      text: JSON.stringify(answer),
      model: 'scripted',
      usage: { promptTokens: 10, completionTokens: 5 },
      repaired: false,
    };
  }

  private next(agent: AgentName): unknown {
    this.calls.push(agent);
    const queue = this.answers[agent];
    if (!queue?.length) throw new Error(`ScriptedModel: no answer left for agent "${agent}"`);
    return queue.shift();
  }
}
