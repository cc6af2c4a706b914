import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import { isBudgetExhausted } from '../budget.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { endSession } from '../end-session.ts';
import { finalSources } from '../final-sources.ts';
import { createUnderLatestSummary } from '../latest-summary.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { finalMessages } from '../prompts.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';
import { levelFailed } from './close-level.ts';

/** Why the loop ended, in the person's words. */
export function endNote(state: DivergentStateType): string {
  const l = state.language;
  const score = state.scores.at(-1)?.overall ?? null;
  if (state.budgetOut) return DIVERGENT_NOTES.budgetExhausted(l);
  if (state.stopRequested) return DIVERGENT_NOTES.stopped(l);
  if (levelFailed(state)) return DIVERGENT_NOTES.laterLevelFailed(l, state.level + 1);
  if (score !== null && score >= state.threshold) return DIVERGENT_NOTES.thresholdReached(l, score, state.threshold);
  if (state.level >= state.maxLevels) return DIVERGENT_NOTES.levelsExhausted(l, state.level, score, state.threshold);
  return DIVERGENT_NOTES.emptyPlan(l);
}

/**
 * Writes the final output: a Markdown document citing the task results, as a FINAL node under the latest
 * summary (the person can read, edit and export it like any conclusion), with the note on how the session
 * ended posted on it. The document ends with a Sources section written here, not by the model: its citations
 * of task keys are checked against the finished tasks, and the tasks it drew on (with their web pages and
 * library documents) are listed and reported with the session's end (`drewOn`). When the map's budget ran out, the document is written from the finished results; with
 * none, the session ends with a notice instead. When the budget refuses the document itself, its node is
 * FAILED with that notice, and every finished node stays.
 */
export function writeFinal(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const level = Math.max(0, state.level);
    const results = state.results
      .filter((r) => r.status === 'DONE')
      .map((r) => ({ key: r.key, name: r.name, text: r.text }));
    if (state.budgetOut && results.length === 0)
      return endSession(deps, state, config, {
        nodeId: state.summaryNodeId ?? state.nodeId,
        note: DIVERGENT_NOTES.budgetNothingFound(state.language),
        outcome: 'BUDGET_EXHAUSTED',
        level,
        finalNodeId: null,
        key: ['writeFinal', 'note'],
      });
    const title = state.language === 'zh' ? '最终输出' : 'Final output';
    const node = await createUnderLatestSummary(deps, state, {
      question: title,
      role: 'FINAL',
      level,
      idempotencyKey: writeKey(config, 'writeFinal', 'node'),
    });
    let written: string;
    try {
      const answer = await deps.model.chat({
        agent: 'diverge',
        messages: finalMessages(state.language, state.intent, state.summaries.at(-1)?.text ?? '', results),
        offlineHint: { language: state.language, question: state.intent },
        signal: config.signal,
        onToken: (token) => deps.events.tokensStreamed(runRefOf(config, DIVERGENT_GRAPH, node.id), token),
      });
      written = answer.text;
    } catch (error) {
      if (!isBudgetExhausted(error)) throw error;
      const note = DIVERGENT_NOTES.budgetNoFinal(state.language);
      await deps.store.setNodeStatus(node.id, 'FAILED', note);
      return endSession(deps, state, config, {
        nodeId: node.id,
        note,
        outcome: 'BUDGET_EXHAUSTED',
        level,
        finalNodeId: null,
        key: ['writeFinal', 'note'],
      });
    }
    const sources = finalSources(state.language, written, state.results);
    await deps.store.concludeNode(node.id, {
      text: `${written.trimEnd()}\n\n${sources.section}`,
      kind: 'ANALYTICAL',
      idempotencyKey: writeKey(config, 'writeFinal', 'text'),
    });
    return endSession(deps, state, config, {
      nodeId: node.id,
      note: endNote(state),
      outcome: 'FINISHED',
      level,
      finalNodeId: node.id,
      drewOn: sources.drewOn,
      key: ['writeFinal', 'note'],
    });
  };
}
