import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { createUnderLatestSummary } from '../latest-summary.ts';
import { summarizeMessages } from '../prompts.ts';
import { type DivergentStateType, type DivergentUpdate, outcomesOf } from '../state.ts';
import { readSteering } from '../steer.ts';

/**
 * Writes the next summary as a node: level 0 (under the explored node) restates the intent; level k (under
 * summary k-1, next to level k's tasks) converges the successful results of level k and depends on their
 * nodes, so the map shows what it was built from. Uses the person's feedback (each once).
 */
export function writeSummary(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const run = runRefOf(config, DIVERGENT_GRAPH, state.nodeId);
    const level = state.level + 1;
    const converged = level === 0 ? [] : outcomesOf(state, level).filter((r) => r.status === 'DONE');
    const previous = state.summaries.at(-1)?.text ?? null;
    const steering = await readSteering(deps, state);
    const notes = [state.feedback, ...steering.feedback.map((f) => f.text)].filter((f): f is string => Boolean(f));
    const feedback = notes.length ? notes.join('\n') : null;
    const answer = await deps.model.chat({
      agent: 'diverge',
      messages: summarizeMessages(state.language, state.intent, previous, converged, feedback),
      offlineHint: { language: state.language, question: state.intent },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(run, text),
    });
    const title = state.language === 'zh' ? `第 ${level} 层总结` : `Summary, level ${level}`;
    const node = await createUnderLatestSummary(deps, state, {
      question: title,
      role: 'SUMMARY',
      level,
      idempotencyKey: writeKey(config, 'writeSummary', level),
    });
    for (const r of converged)
      await deps.store.addDependency(node.id, r.nodeId, {
        idempotencyKey: writeKey(config, 'writeSummary', level, r.key),
      });
    await deps.store.concludeNode(node.id, {
      text: answer.text,
      kind: 'ANALYTICAL',
      idempotencyKey: writeKey(config, 'writeSummary', level, 'text'),
    });
    return {
      level,
      summaryNodeId: node.id,
      summaries: [{ level, nodeId: node.id, text: answer.text, converged: converged.map((r) => r.key) }],
      feedback: null,
      usedSteering: steering.feedback.map((f) => f.id),
      stopRequested: steering.stop,
      tasks: [],
    };
  };
}
