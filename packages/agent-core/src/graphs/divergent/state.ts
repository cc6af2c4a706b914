import { Annotation } from '@langchain/langgraph';
import type { DivergentOutcome, EndedDivergentTaskStatus, Language } from '../../domain/enums.ts';
import type { DivergentSkillName } from '../../ports/divergent-skills-port.ts';
import type { KnowledgeSource } from '../../ports/knowledge-port.ts';
import type { CompletionEvaluation, PlannedTask } from './schemas.ts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });
const appended = <T>() => Annotation<T[]>({ reducer: (all, more) => all.concat(more), default: () => [] });

/** A summary written by the session: level 0 restates the intent, level k converges level k's tasks. */
export interface SummaryRecord {
  level: number;
  nodeId: string;
  text: string;
  /** Citation keys of the task results it converged (none at level 0). */
  converged: string[];
}

/** A task of a level once its node exists. `key` (`L1.T2`) is how documents cite it. */
export interface LevelTask extends PlannedTask {
  key: string;
  /** The steering id of a task the person added. */
  addedId?: string;
  level: number;
  nodeId: string;
}

/** A task the session did not run, and why (over the parallel limit, skill not configured). */
export interface DroppedTask extends PlannedTask {
  level: number;
  reason: string;
}

/** How a task ended: its result, or why it failed. */
export interface TaskOutcome {
  key: string;
  level: number;
  nodeId: string;
  name: string;
  skill: DivergentSkillName;
  status: EndedDivergentTaskStatus;
  /** The result (DONE) as Markdown; empty when failed. */
  text: string;
  /** Why it failed (FAILED) or did not run (SKIPPED). */
  reason: string | null;
  sources: KnowledgeSource[];
}

/** A level's completion score: the three dimensions with reasons and the overall weighted in code. */
export interface ScoreRecord extends CompletionEvaluation {
  level: number;
  /** The summary node the score is stored on. */
  nodeId: string;
  overall: number;
}

/**
 * State of the divergent exploration graph. Map nodes are data (ids), written through the store port, so
 * checkpoints stay small. Fields marked "steering" may be changed by the person between steps (the server
 * updates the thread's state); each is read at the step named.
 */
export const DivergentState = Annotation.Root({
  /** The node whose question the session explores (input). */
  nodeId: last<string>(() => ''),
  /** Levels of tasks at most (input, 1..5, default 5). */
  maxLevels: last<number>(() => 5),
  /** Tasks run in parallel per level at most (input, 1..8, default 8). */
  maxParallel: last<number>(() => 8),
  /** Steering: the completion score that ends the loop (input, default 0.9); read after each evaluation. */
  threshold: last<number>(() => 0.9),
  /** Steering: whether each level's task list waits for the person's approval (input). */
  reviewEachLevel: last<boolean>(() => false),
  /** Steering: what the next summary must take into account; cleared once a summary used it. */
  feedback: last<string | null>(() => null),
  /** Steering: set to end after the current step with the final output. */
  stopRequested: last<boolean>(() => false),
  /** Steering: tasks the person added (`addedId`: the steering's id); the next level's plan runs them first. */
  extraTasks: last<(PlannedTask & { addedId?: string })[]>(() => []),
  /** Ids of the steering feedback and added tasks already used (each is used once). */
  usedSteering: appended<string>(),

  /** The map and its language; the intent (question and goal) every prompt is built around. */
  mapId: last<string>(() => ''),
  language: last<Language>(() => 'en'),
  intent: last<string>(() => ''),

  /** The latest summary's level (-1 before the first) and node. */
  level: last<number>(() => -1),
  summaryNodeId: last<string | null>(() => null),
  summaries: appended<SummaryRecord>(),
  /** The next level's task list as planned (and, with review, as approved), the planner's rationale. */
  plan: last<PlannedTask[]>(() => []),
  planRationale: last<string>(() => ''),
  dropped: appended<DroppedTask>(),
  /** The current level's tasks, with their nodes. */
  tasks: last<LevelTask[]>(() => []),
  /** The task a `runTask` branch runs (set only in the state a `Send` hands it). */
  task: last<LevelTask | null>(() => null),
  /** Every task's outcome, all levels, appended by the parallel branches. */
  results: appended<TaskOutcome>(),
  scores: appended<ScoreRecord>(),

  /**
   * Set when the map's token budget refused a model call: the session makes no other call than the final
   * output's, written from what the finished levels found (or it ends with a notice when nothing was found).
   */
  budgetOut: last<boolean>(() => false),

  /** The final output's node, the note on how the session ended, and the outcome. */
  finalNodeId: last<string | null>(() => null),
  note: last<string | null>(() => null),
  outcome: last<DivergentOutcome | null>(() => null),
});
/** @see DivergentState */
export type DivergentStateType = typeof DivergentState.State;
/** @see DivergentState */
export type DivergentUpdate = typeof DivergentState.Update;

/** The outcomes of one level's tasks. */
export const outcomesOf = (state: DivergentStateType, level: number) => state.results.filter((r) => r.level === level);
