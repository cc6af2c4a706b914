import { DIVERGENT_SKILL_NAMES } from '@thinkingmap/agent-core';
import { z } from 'zod';

const skill = z.enum(DIVERGENT_SKILL_NAMES);
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
    tasks: z.array(z.object({ key: z.string(), nodeId: z.string(), ...planned })),
    dropped: z.array(z.object({ ...planned, reason: z.string() })),
  }),
  /** A task started running. */
  DivergentTaskStarted: z.object({ runId: z.string(), level: z.number().int(), key: z.string(), nodeId: z.string() }),
  /** A task ended: DONE, or FAILED with the reason. */
  DivergentTaskFinished: z.object({
    runId: z.string(),
    level: z.number().int(),
    key: z.string(),
    nodeId: z.string(),
    status: z.enum(['DONE', 'FAILED']),
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
  /** The session ended: with its final output, or (ALL_FAILED) when every task of a level failed. */
  DivergentFinished: z.object({
    runId: z.string(),
    outcome: z.enum(['FINISHED', 'ALL_FAILED']),
    level: z.number().int(),
    finalNodeId: z.string().nullable(),
    note: z.string(),
  }),
};
