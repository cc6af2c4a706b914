import { isGraphInterrupt, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import { isBudgetExhausted } from '../budget.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import type { DivergentStateType, DivergentUpdate, TaskOutcome } from '../state.ts';
import { readSteering } from '../steer.ts';

/** Errors that end the run rather than one task: it paused, or it was cancelled. */
function endsRun(error: unknown, signal: AbortSignal | undefined): boolean {
  return isGraphInterrupt(error) || Boolean(signal?.aborted);
}

/**
 * Runs one task of a level (a `Send` branch: `state.task` is its task) with its skill, streaming its text to
 * its node. Done: the node is concluded with the result (sources, code and citations kept in a message).
 * Failed: the node is FAILED with the reason, and the level goes on; when the reason is the map's budget, the
 * session then writes its final output from the finished results (`budgetOut`). Skipped by the person (before
 * or while it runs) or ended by a stop: SKIPPED, its node FAILED with that reason. A finished branch is
 * checkpointed as the superstep's write, so a resumed session does not run it again.
 */
export function runTask(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const task = state.task!;
    const run = runRefOf(config, DIVERGENT_GRAPH, task.nodeId);
    const base = { key: task.key, level: task.level, nodeId: task.nodeId, name: task.name, skill: task.skill };
    const where = { level: task.level, key: task.key, nodeId: task.nodeId };
    // The person may skip the task or stop the session before it runs or while it runs (its own signal).
    const own = deps.steering?.taskSignal(task.key);
    let budgetOut = false;
    try {
      const steering = await readSteering(deps, state);
      const skipped = steering.skipped.has(task.key) || steering.stop;
      let outcome = skipped ? null : await attempt();
      if (!outcome) {
        const reason = steering.stop ? DIVERGENT_NOTES.taskStopped(state.language) : whySkipped();
        await deps.store.setNodeStatus(task.nodeId, 'FAILED', reason);
        outcome = { ...base, status: 'SKIPPED', text: '', reason, sources: [] };
      }
      deps.events.divergent?.(run, {
        type: 'DivergentTaskFinished',
        payload: { ...where, status: outcome.status, reason: outcome.reason },
      });
      return { results: [outcome], ...(budgetOut ? { budgetOut } : {}) };
    } finally {
      deps.steering?.release(task.key);
    }

    /** Why the task's own signal ended it: the person skipped it, or stopped the session. */
    function whySkipped(): string {
      const why = own?.reason;
      return why === 'stop' ? DIVERGENT_NOTES.taskStopped(state.language) : DIVERGENT_NOTES.taskSkipped(state.language);
    }

    /** Runs the task; null when the person skipped it (or stopped the session) while it ran. */
    async function attempt(): Promise<TaskOutcome | null> {
      await deps.store.setNodeStatus(task.nodeId, 'RUNNING');
      deps.events.divergent?.(run, { type: 'DivergentTaskStarted', payload: where });
      const signal = own && config.signal ? AbortSignal.any([config.signal, own]) : (own ?? config.signal);
      try {
        const result = await deps.skills.run({
          key: task.key,
          name: task.name,
          query: task.query,
          skill: task.skill,
          language: state.language,
          intent: state.intent,
          summary: state.summaries.at(-1)?.text ?? '',
          earlier: state.results
            .filter((r) => r.status === 'DONE')
            .map((r) => ({ key: r.key, name: r.name, text: r.text })),
          signal,
          onToken: (text) => deps.events.tokensStreamed(run, text),
        });
        const cites = result.cites ?? [];
        if (result.sources.length || result.code || cites.length)
          await deps.store.postMessage({
            nodeId: task.nodeId,
            conversation: 'CONCLUDE',
            role: 'ASSISTANT',
            kind: result.sources.length ? 'RAG' : 'TEXT',
            content: result.text,
            sources: result.sources,
            metadata: {
              divergentSkill: task.skill,
              ...(result.code ? { code: result.code } : {}),
              cites,
            },
            idempotencyKey: writeKey(config, 'runTask', task.key, 'result'),
          });
        await deps.store.concludeNode(task.nodeId, {
          text: result.text,
          kind: 'ANALYTICAL',
          idempotencyKey: writeKey(config, 'runTask', task.key, 'conclude'),
        });
        return { ...base, status: 'DONE', text: result.text, reason: null, sources: result.sources };
      } catch (error) {
        if (endsRun(error, config.signal)) throw error;
        if (own?.aborted) return null;
        budgetOut = isBudgetExhausted(error);
        const reason = error instanceof Error ? error.message : String(error);
        await deps.store.setNodeStatus(task.nodeId, 'FAILED', reason);
        return { ...base, status: 'FAILED', text: '', reason, sources: [] };
      }
    }
  };
}
