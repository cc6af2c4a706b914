import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { createUnderLatestSummary } from '../latest-summary.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { finalMessages } from '../prompts.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';

/** Why the loop ended, in the person's words. */
export function endNote(state: DivergentStateType): string {
  const l = state.language;
  const score = state.scores.at(-1)?.overall ?? null;
  if (state.stopRequested) return DIVERGENT_NOTES.stopped(l);
  if (score !== null && score >= state.threshold) return DIVERGENT_NOTES.thresholdReached(l, score, state.threshold);
  if (state.level >= state.maxLevels) return DIVERGENT_NOTES.levelsExhausted(l, state.level, score, state.threshold);
  return DIVERGENT_NOTES.emptyPlan(l);
}

/**
 * Writes the final output: a Markdown document citing the task results, as a FINAL node under the latest
 * summary (the person can read, edit and export it like any conclusion), with the note on how the session
 * ended posted on it.
 */
export function writeFinal(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const title = state.language === 'zh' ? '最终输出' : 'Final output';
    const node = await createUnderLatestSummary(deps, state, {
      question: title,
      role: 'FINAL',
      level: Math.max(0, state.level),
      idempotencyKey: writeKey(config, 'writeFinal', 'node'),
    });
    const results = state.results
      .filter((r) => r.status === 'DONE')
      .map((r) => ({ key: r.key, name: r.name, text: r.text }));
    const answer = await deps.model.chat({
      agent: 'diverge',
      messages: finalMessages(state.language, state.intent, state.summaries.at(-1)?.text ?? '', results),
      offlineHint: { language: state.language, question: state.intent },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(runRefOf(config, DIVERGENT_GRAPH, node.id), text),
    });
    await deps.store.concludeNode(node.id, {
      text: answer.text,
      kind: 'ANALYTICAL',
      idempotencyKey: writeKey(config, 'writeFinal', 'text'),
    });
    const note = endNote(state);
    await deps.store.postMessage({
      nodeId: node.id,
      conversation: 'CONCLUDE',
      role: 'SYSTEM',
      kind: 'NOTICE',
      content: note,
      idempotencyKey: writeKey(config, 'writeFinal', 'note'),
    });
    deps.events.divergent?.(runRefOf(config, DIVERGENT_GRAPH, state.nodeId), {
      type: 'DivergentFinished',
      payload: { outcome: 'FINISHED', level: Math.max(0, state.level), finalNodeId: node.id, note },
    });
    return { finalNodeId: node.id, note, outcome: 'FINISHED' };
  };
}
