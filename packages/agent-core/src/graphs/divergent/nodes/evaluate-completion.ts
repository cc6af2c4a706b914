import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { evaluateMessages } from '../prompts.ts';
import { CompletionEvaluationSchema, overallScore } from '../schemas.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';
import { readSteering } from '../steer.ts';

/**
 * Scores the latest summary against the intent and every task result: the model scores three dimensions
 * with reasons, the overall is weighted in code and stored on the summary node; the reasons are posted on it.
 */
export function evaluateCompletion(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const summary = state.summaries.at(-1)!;
    const results = state.results
      .filter((r) => r.status === 'DONE')
      .map((r) => ({ key: r.key, name: r.name, text: r.text }));
    const answer = await deps.model.structured({
      agent: 'evaluate',
      schema: CompletionEvaluationSchema,
      schemaName: 'completion_evaluation',
      messages: evaluateMessages(state.language, state.intent, summary.text, results),
      offlineHint: { language: state.language, question: state.intent },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(runRefOf(config, DIVERGENT_GRAPH, summary.nodeId), text),
    });
    const e = answer.value;
    const overall = overallScore(e);
    // The person's threshold and added tasks as they stand now decide whether the loop goes on.
    const steering = await readSteering(deps, state);
    const threshold = steering.threshold;
    await deps.store.recordCompletionScore(summary.nodeId, overall, {
      idempotencyKey: writeKey(config, 'evaluateCompletion', summary.level),
    });
    const zh = state.language === 'zh';
    const lines = [
      `${zh ? '完成度' : 'Completion'}: ${overall}`,
      `- ${zh ? '信息完整性' : 'Information completeness'} (40%): ${e.completeness.score} — ${e.completeness.reason}`,
      `- ${zh ? '意图匹配度' : 'Intent match'} (40%): ${e.intentMatch.score} — ${e.intentMatch.reason}`,
      `- ${zh ? '输出质量' : 'Output quality'} (20%): ${e.quality.score} — ${e.quality.reason}`,
    ];
    await deps.store.postMessage({
      nodeId: summary.nodeId,
      conversation: 'CONCLUDE',
      role: 'ASSISTANT',
      kind: 'TEXT',
      content: lines.join('\n'),
      metadata: { completion: { ...e, overall } },
      idempotencyKey: writeKey(config, 'evaluateCompletion', summary.level, 'reasons'),
    });
    deps.events.divergent?.(runRefOf(config, DIVERGENT_GRAPH, state.nodeId), {
      type: 'CompletionScored',
      payload: { ...e, level: summary.level, nodeId: summary.nodeId, overall, threshold },
    });
    return {
      scores: [{ ...e, level: summary.level, nodeId: summary.nodeId, overall }],
      threshold,
      stopRequested: steering.stop,
      extraTasks: [...state.extraTasks, ...steering.tasks],
      usedSteering: steering.tasks.map((t) => t.addedId!),
    };
  };
}
