import { DIVERGENT_SKILL_NAMES } from '@thinkingmap/agent-core';
import { DivergentOutcome, ENDED_DIVERGENT_TASK_STATUSES } from '@thinkingmap/db/enums';
import { z } from 'zod';

const skill = z.enum(DIVERGENT_SKILL_NAMES);

/** How the person can steer a running divergent session (see `DivergentSteered`). */
export const DIVERGENT_STEERING_ACTIONS = ['STOP', 'SKIP_TASK', 'ADD_TASK', 'SET_THRESHOLD', 'ADD_FEEDBACK'] as const;
/** One of {@link DIVERGENT_STEERING_ACTIONS}. */
export type DivergentSteeringAction = (typeof DIVERGENT_STEERING_ACTIONS)[number];
const dimension = z.object({ score: z.number(), reason: z.string() });
const planned = { name: z.string(), query: z.string(), skill, priority: z.number().int() };

/**
 * The payloads of a divergent session's events (each carries its run's id, the session's id). Version 1 of
 * each; they join `EVENT_CONTRACTS`.
 */
export const DIVERGENT_EVENT_PAYLOADS = {
  /** A level's tasks were created under the summary they were planned from; `dropped` did not run, and why. */
  DivergentLevelStarted: z.object({
    runId: z.string(),
    level: z.number().int(),
    summaryNodeId: z.string(),
    tasks: z.array(z.object({ key: z.string(), nodeId: z.string(), ...planned, addedId: z.string().nullish() })),
    dropped: z.array(z.object({ ...planned, reason: z.string() })),
  }),
  /** A task started running. */
  DivergentTaskStarted: z.object({ runId: z.string(), level: z.number().int(), key: z.string(), nodeId: z.string() }),
  /** A task ended: DONE, FAILED with the reason, or SKIPPED (the person skipped it or stopped the session). */
  DivergentTaskFinished: z.object({
    runId: z.string(),
    level: z.number().int(),
    key: z.string(),
    nodeId: z.string(),
    status: z.enum(ENDED_DIVERGENT_TASK_STATUSES),
    reason: z.string().nullable(),
  }),
  /** A level's summary was scored: three dimensions with reasons, the overall weighted in code. */
  CompletionScored: z.object({
    runId: z.string(),
    level: z.number().int(),
    nodeId: z.string(),
    overall: z.number(),
    threshold: z.number(),
    completeness: dimension,
    intentMatch: dimension,
    quality: dimension,
  }),
  /**
   * The person steered the session (`steeringId` names this change): STOP (ends after the current step with a
   * final output from what exists), SKIP_TASK (`taskKey`), ADD_TASK (`task`, runs in the next level planned),
   * SET_THRESHOLD (`threshold`), ADD_FEEDBACK (`feedback`, taken into account by the next summary).
   */
  DivergentSteered: z.object({
    runId: z.string(),
    steeringId: z.string(),
    action: z.enum(DIVERGENT_STEERING_ACTIONS),
    taskKey: z.string().nullable(),
    task: z.object(planned).nullable(),
    threshold: z.number().nullable(),
    feedback: z.string().nullable(),
  }),
  /**
   * The session ended: with its final output, (ALL_FAILED) when every task of a level failed, or
   * (BUDGET_EXHAUSTED) when the map's token budget ran out before a final output could be written.
   */
  DivergentFinished: z.object({
    runId: z.string(),
    outcome: z.enum(DivergentOutcome),
    level: z.number().int(),
    finalNodeId: z.string().nullable(),
    note: z.string(),
    /** Keys of the finished tasks the final output drew on (its Sources section lists them). */
    drewOn: z.array(z.string()),
  }),
};
