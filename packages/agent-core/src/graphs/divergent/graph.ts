import { END, Send, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { instrumentStep, type Step } from '../shared/instrument-step.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
import { untilBudgetRunsOut } from './budget.ts';
import type { DivergentDeps } from './divergent-deps.ts';
import { DIVERGENT_GRAPH } from './divergent-graph-name.ts';
import { closeLevel, levelFailed } from './nodes/close-level.ts';
import { createTasks } from './nodes/create-tasks.ts';
import { evaluateCompletion } from './nodes/evaluate-completion.ts';
import { planTasks } from './nodes/plan-tasks.ts';
import { readIntent } from './nodes/read-intent.ts';
import { reviewTasks } from './nodes/review-tasks.ts';
import { runTask } from './nodes/run-task.ts';
import { writeFinal } from './nodes/write-final.ts';
import { writeSummary } from './nodes/write-summary.ts';
import { DivergentState, type DivergentStateType } from './state.ts';

/** Supersteps of a whole session: about seven per level, five levels, with room for review rounds. */
const RECURSION_LIMIT = 200;

/** Whether the session goes straight to its final output: the person stopped it, or the budget ran out. */
const ending = (s: DivergentStateType) => s.stopRequested || s.budgetOut;

/** After a level is scored: final output at the threshold, after the last level or when stopped; else plan. */
function afterScore(s: DivergentStateType) {
  const score = s.scores.at(-1)?.overall ?? 0;
  // Tasks the person added still run (one more level) even when the score reached the threshold.
  const reached = score >= s.threshold && s.extraTasks.length === 0;
  return ending(s) || reached || s.level >= s.maxLevels ? 'finish' : 'deeper';
}

/**
 * Divergent exploration ("总分总"): readIntent → writeSummary (level 0) → planTasks → [reviewTasks: the
 * person approves, edits or stops] → createTasks → runTask × n in parallel (`Send`) → closeLevel (every task
 * failed: at level 1 end with a notice, later write the final output from the earlier levels) → writeSummary
 * (converges level k) → evaluateCompletion → planTasks again, or writeFinal when the score reaches the
 * threshold, `maxLevels` levels are done, the planner proposes nothing or the person stopped. When the map's
 * token budget refuses a model call, the session makes no other call than the final output's (see
 * `writeFinal`). Input: `{ nodeId, maxLevels?, maxParallel?, threshold?, reviewEachLevel? }`.
 */
export function createDivergentGraph(deps: DivergentDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const step = <U>(
    name: string,
    fn: Step<DivergentStateType, U>,
    branchOf?: (state: DivergentStateType) => string | null | undefined,
  ) => instrumentStep(DIVERGENT_GRAPH, name, deps.events, fn, { branchOf });
  const AGENT = stepKind(StepKind.AGENT);
  const TOOL = stepKind(StepKind.TOOL);
  return new StateGraph(DivergentState)
    .addNode('readIntent', step('readIntent', readIntent(deps)), TOOL)
    .addNode('writeSummary', step('writeSummary', untilBudgetRunsOut(writeSummary(deps))), AGENT)
    .addNode('evaluateCompletion', step('evaluateCompletion', untilBudgetRunsOut(evaluateCompletion(deps))), AGENT)
    .addNode('planTasks', step('planTasks', untilBudgetRunsOut(planTasks(deps))), AGENT)
    .addNode('reviewTasks', step('reviewTasks', reviewTasks(deps)), stepKind(StepKind.HUMAN))
    .addNode('createTasks', step('createTasks', createTasks(deps)), TOOL)
    .addNode(
      'runTask',
      step('runTask', runTask(deps), (s) => s.task?.key),
      AGENT,
    )
    .addNode('closeLevel', step('closeLevel', closeLevel(deps)), TOOL)
    .addNode('writeFinal', step('writeFinal', writeFinal(deps)), AGENT)
    .addEdge(START, 'readIntent')
    .addEdge('readIntent', 'writeSummary')
    .addConditionalEdges('writeSummary', (s) => (ending(s) ? 'stopped' : s.level === 0 ? 'plan' : 'score'), {
      plan: 'planTasks',
      score: 'evaluateCompletion',
      stopped: 'writeFinal',
    })
    .addConditionalEdges('evaluateCompletion', afterScore, { deeper: 'planTasks', finish: 'writeFinal' })
    .addConditionalEdges(
      'planTasks',
      (s) => (s.budgetOut || s.plan.length === 0 ? 'nothingPlanned' : s.reviewEachLevel ? 'review' : 'approved'),
      { nothingPlanned: 'writeFinal', review: 'reviewTasks', approved: 'createTasks' },
    )
    .addConditionalEdges('reviewTasks', (s) => (s.plan.length === 0 ? 'stopped' : 'approved'), {
      stopped: 'writeFinal',
      approved: 'createTasks',
    })
    .addConditionalEdges(
      'createTasks',
      // Each task runs as its own branch (a `Send` carries it past the labels); no task left ends the session.
      (s) => (s.tasks.length ? s.tasks.map((task) => new Send('runTask', { ...s, task })) : 'noTasks'),
      { runTasks: 'runTask', noTasks: 'writeFinal' },
    )
    .addEdge('runTask', 'closeLevel')
    .addConditionalEdges(
      'closeLevel',
      // A later level whose tasks all failed, or a spent budget: the final output from what was found.
      (s) => (s.outcome === 'ALL_FAILED' ? 'allFailed' : s.budgetOut || levelFailed(s) ? 'final' : 'summarize'),
      { allFailed: END, final: 'writeFinal', summarize: 'writeSummary' },
    )
    .addEdge('writeFinal', END)
    .compile({ checkpointer: options.checkpointer })
    .withConfig({ recursionLimit: RECURSION_LIMIT });
}
