import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { RunRef } from '../../ports/event-port.ts';

/** The thread id of the running graph (one thread per run). Throws when missing: checkpoints need it. */
export function threadIdOf(config: LangGraphRunnableConfig): string {
  const threadId: unknown = config.configurable?.thread_id;
  if (typeof threadId !== 'string' || !threadId)
    throw new Error('a ThinkingMap graph runs with configurable.thread_id');
  return threadId;
}

/** The run an event belongs to: `configurable.run_id`, else the thread id. */
export function runRefOf(config: LangGraphRunnableConfig, graph: string, nodeId?: string | null): RunRef {
  const configured: unknown = config.configurable?.run_id;
  const runId = typeof configured === 'string' ? configured : threadIdOf(config);
  return nodeId ? { runId, graph, nodeId } : { runId, graph };
}

/**
 * An idempotency key for a store write made by a step: the same thread, step and round always give the
 * same key, so a step LangGraph re-runs writes nothing twice.
 */
export function writeKey(config: LangGraphRunnableConfig, step: string, ...parts: (string | number)[]): string {
  return [threadIdOf(config), step, ...parts].join(':');
}
