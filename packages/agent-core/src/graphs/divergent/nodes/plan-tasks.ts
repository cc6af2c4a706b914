import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf } from '../../shared/run-config.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent-graph-name.ts';
import { planMessages } from '../prompts.ts';
import { TASK_PLAN_READABLE, TaskPlanSchema } from '../schemas.ts';
import { selectLevelTasks } from '../select-tasks.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';
import { readSteering } from '../steer.ts';

/**
 * Plans the next level from the latest summary: the model proposes tasks; the person's added tasks come
 * first; the rest are ranked by priority and cut at `maxParallel` (see `selectLevelTasks`).
 */
export function planTasks(deps: DivergentDeps) {
  return async (state: DivergentStateType, config: LangGraphRunnableConfig): Promise<DivergentUpdate> => {
    const run = runRefOf(config, DIVERGENT_GRAPH, state.nodeId);
    const summary = state.summaries.at(-1)?.text ?? '';
    const answer = await deps.model.structured({
      agent: 'diverge',
      schema: TaskPlanSchema,
      schemaName: 'divergent_plan',
      readable: TASK_PLAN_READABLE,
      messages: planMessages(
        state.language,
        state.intent,
        summary,
        deps.skills.available(),
        state.maxParallel,
        state.scores.at(-1)?.overall ?? null,
      ),
      offlineHint: { language: state.language, question: state.intent },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(run, text),
    });
    // Read after the model's answer: what the person added or decided while it planned counts for this level.
    const steering = await readSteering(deps, state);
    if (steering.stop) return { plan: [], stopRequested: true };
    const { run: plan, dropped } = selectLevelTasks(
      [...state.extraTasks, ...steering.tasks],
      answer.value.tasks,
      state.maxParallel,
      deps.skills,
      state.language,
      state.level + 1,
    );
    return {
      plan,
      planRationale: answer.value.rationale,
      dropped,
      extraTasks: [],
      usedSteering: steering.tasks.map((t) => t.addedId!),
    };
  };
}
