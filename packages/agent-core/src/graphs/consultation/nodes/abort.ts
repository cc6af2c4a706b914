import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { AgentError } from '../../../errors/agent-error.ts';

/** Stops a step of a turn that was interrupted: a stale turn writes nothing after its abort. */
export function throwIfAborted(config: LangGraphRunnableConfig): void {
  if (config.signal?.aborted)
    throw new AgentError('CANCELLED', 'the turn was interrupted', { cause: config.signal.reason });
}
