/**
 * Every enumerated fact of ThinkingMap, declared once and importable without the Prisma client (this module
 * has no runtime dependency): agent-core, the server's GraphQL schema, zod inputs, MCP tool schemas and the
 * web app all take their values from here, so adding a value is one edit.
 *
 * The database enums are generated from `prisma/schema.prisma`. The facts stored as plain strings (values
 * with hyphens, which a Prisma enum cannot spell, and the values of event payloads) are declared below in the same `{ NAME: value } as const`
 * shape, so `z.enum(X)`, `builder.enumType(X, …)` and `Object.values(X)` work alike on both.
 */
import { RunStatus } from '../generated/sqlite/enums.ts';

export * from '../generated/sqlite/enums.ts';

/** What kind of answer a paused run waits for (`AgentQuestion.kind`). */
export const QuestionKind = {
  /** The problem-understanding agent asks the person to confirm or correct its restatement. */
  CONFIRM_UNDERSTANDING: 'confirm-understanding',
  /** The person reviews proposed sub-questions: approve (with edits) or reject with feedback. */
  REVIEW_DECOMPOSITION: 'review-decomposition',
  /** The person reviews a drafted conclusion: accept, or ask for a revision. */
  REVIEW_CONCLUSION: 'review-conclusion',
  /** The agent lacks something only the person knows and asks for it. */
  CLARIFY: 'clarify',
  /** The person reviews a divergent level's task list before it runs: approve (with edits) or stop. */
  REVIEW_DIVERGENT_TASKS: 'review-divergent-tasks',
} as const;
/** One of {@link QuestionKind}'s values. */
export type QuestionKind = (typeof QuestionKind)[keyof typeof QuestionKind];

/** Whether `value` is one of `values`: a string read from outside, narrowed to the union it belongs to. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return values.some((known) => known === value);
}

/**
 * The person's gates: a run asking one of these never goes on without their answer — not by expiry, not by
 * default. An expired gate question stays answerable and its run is PAUSED (see {@link ANSWERABLE_RUN_STATUSES}).
 */
export const GATE_QUESTION_KINDS: readonly QuestionKind[] = [
  QuestionKind.CONFIRM_UNDERSTANDING,
  QuestionKind.REVIEW_DECOMPOSITION,
  QuestionKind.REVIEW_CONCLUSION,
];

/** Whether a question of `kind` is one of the person's gates ({@link GATE_QUESTION_KINDS}). */
export const isGateQuestion = (kind: string): boolean => isOneOf(GATE_QUESTION_KINDS, kind);

/**
 * The statuses of a run that has not ended: it works, waits for the person, or waits for its node's open
 * dependencies to conclude. A node has at most one.
 */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = [
  RunStatus.RUNNING,
  RunStatus.WAITING,
  RunStatus.WAITING_FOR_DEPENDENCIES,
];

/**
 * The statuses of a run whose questions the person can still answer: waiting, or PAUSED after a gate question
 * expired. A PAUSED run does not hold its node (it is not in {@link ACTIVE_RUN_STATUSES}): processing the node
 * again replaces it.
 */
export const ANSWERABLE_RUN_STATUSES: readonly RunStatus[] = [RunStatus.WAITING, RunStatus.PAUSED];

/**
 * The statuses of a run that has not ended ({@link ACTIVE_RUN_STATUSES} and {@link ANSWERABLE_RUN_STATUSES}): the
 * person can still cancel it, or steer it (a divergent session).
 */
export const OPEN_RUN_STATUSES: readonly RunStatus[] = [
  ...new Set([...ACTIVE_RUN_STATUSES, ...ANSWERABLE_RUN_STATUSES]),
];

/** Whether a run of `status` has not ended ({@link OPEN_RUN_STATUSES}). */
export const isRunOpen = (status: string): boolean => isOneOf(OPEN_RUN_STATUSES, status);

/** The agent graphs a run can execute (`AgentRun.agent`). */
export const AgentGraph = {
  /** Restates the problem until the person confirms it, then creates the root node. */
  UNDERSTAND_PROBLEM: 'understand-problem',
  /** Works on one node: context, dependencies, intent, then decomposition or conclusion. */
  PROCESS_NODE: 'process-node',
  /** Divergent exploration from a node: summary, parallel skill tasks, converge, score, up to 5 levels, final output. */
  DIVERGENT: 'divergent',
  /** A consultation turn: the front agent answers, the planner plans and writes records and notes. */
  CONSULTATION: 'consultation',
  /** Reviews a map or a subtree on request and posts what it finds as suggestions the person accepts or dismisses. */
  CRITIC: 'critic',
} as const;
/** One of {@link AgentGraph}'s values. */
export type AgentGraph = (typeof AgentGraph)[keyof typeof AgentGraph];

/**
 * Where a task of a divergent level stands (folded from its session's events; `DivergentTask.status`): planned,
 * running, or one of {@link ENDED_DIVERGENT_TASK_STATUSES}.
 */
export const DivergentTaskStatus = {
  /** Created with its level, not started yet. */
  PLANNED: 'PLANNED',
  RUNNING: 'RUNNING',
  DONE: 'DONE',
  /** Its skill failed; the task's `reason` says why. */
  FAILED: 'FAILED',
  /** Skipped by the person, or the session stopped before it ended. */
  SKIPPED: 'SKIPPED',
} as const;
/** One of {@link DivergentTaskStatus}'s values. */
export type DivergentTaskStatus = (typeof DivergentTaskStatus)[keyof typeof DivergentTaskStatus];

/** The statuses a divergent task ends with (`DivergentTaskFinished.status`): it can no longer be skipped. */
export const ENDED_DIVERGENT_TASK_STATUSES = [
  DivergentTaskStatus.DONE,
  DivergentTaskStatus.FAILED,
  DivergentTaskStatus.SKIPPED,
] as const;
/** One of {@link ENDED_DIVERGENT_TASK_STATUSES}. */
export type EndedDivergentTaskStatus = (typeof ENDED_DIVERGENT_TASK_STATUSES)[number];

/** Whether a divergent task of `status` has ended ({@link ENDED_DIVERGENT_TASK_STATUSES}). */
export const isDivergentTaskEnded = (status: string): boolean => isOneOf(ENDED_DIVERGENT_TASK_STATUSES, status);

/** How a divergent session ended (`DivergentFinished.outcome`). */
export const DivergentOutcome = {
  /** With its final output. */
  FINISHED: 'FINISHED',
  /** Every task of a level failed: no final output. */
  ALL_FAILED: 'ALL_FAILED',
  /** The map's token budget ran out before a final output could be written. */
  BUDGET_EXHAUSTED: 'BUDGET_EXHAUSTED',
} as const;
/** One of {@link DivergentOutcome}'s values. */
export type DivergentOutcome = (typeof DivergentOutcome)[keyof typeof DivergentOutcome];

/** Whether an agent entered or left a step of its graph (`AgentStep.phase`). */
export const AgentStepPhase = { ENTERED: 'ENTERED', LEFT: 'LEFT' } as const;
/** One of {@link AgentStepPhase}'s values. */
export type AgentStepPhase = (typeof AgentStepPhase)[keyof typeof AgentStepPhase];

/** How a node's context items changed (`ContextUpdated.action`). */
export const ContextAction = { ADDED: 'ADDED', REMOVED: 'REMOVED' } as const;
/** One of {@link ContextAction}'s values. */
export type ContextAction = (typeof ContextAction)[keyof typeof ContextAction];

/** Where something an agent had in its context at a step came from (`RunStepContext.source`). */
export const StepContextSource = {
  /** One of the node's context items. */
  CONTEXT_ITEM: 'CONTEXT_ITEM',
  /** A message of the node's conversations. */
  MESSAGE: 'MESSAGE',
} as const;
/** One of {@link StepContextSource}'s values. */
export type StepContextSource = (typeof StepContextSource)[keyof typeof StepContextSource];
