import { z } from 'zod';
import { asText, type ReadableFields } from '../../model/readable-stream.ts';
import { DIVERGENT_SKILL_NAMES } from '../../ports/divergent-skills-port.ts';

/** The most tasks a level runs in parallel, and the most levels a session has. */
export const DIVERGENT_LIMITS = { maxParallel: 8, maxLevels: 5, threshold: 0.9 } as const;

/** One task the planner proposes: what to find out, with which skill, how important (5 = most). */
export const PlannedTaskSchema = z.object({
  name: z.string().min(1).max(120),
  query: z.string().min(1).max(2000),
  skill: z.enum(DIVERGENT_SKILL_NAMES),
  priority: z.number().int().min(1).max(5),
});
/** @see PlannedTaskSchema */
export type PlannedTask = z.infer<typeof PlannedTaskSchema>;

/** The most tasks a list may propose (the planner's, or the person's edit); those over `maxParallel` are dropped. */
const MAX_PROPOSED_TASKS = 20;

/** The planner's answer: the tasks of the next level (none when the summary already answers the intent). */
export const TaskPlanSchema = z.object({
  rationale: z.string(),
  tasks: z.array(PlannedTaskSchema).max(MAX_PROPOSED_TASKS),
});
/** How a plan reads while it is written: the rationale, then one line per task name. */
export const TASK_PLAN_READABLE: ReadableFields = {
  rationale: asText,
  tasks: (value) =>
    Array.isArray(value)
      ? value
          .map((t) => asText(typeof t === 'object' && t !== null && 'name' in t ? t.name : undefined))
          .filter(Boolean)
          .map((name) => `• ${name}`)
          .join('\n')
      : '',
};
/** @see TaskPlanSchema */
export type TaskPlan = z.infer<typeof TaskPlanSchema>;

const Dimension = z.object({ score: z.number().min(0).max(1), reason: z.string().min(1) });

/** The completion evaluator's answer: three dimensions, each scored in [0, 1] with a reason. */
export const CompletionEvaluationSchema = z.object({
  completeness: Dimension,
  intentMatch: Dimension,
  quality: Dimension,
});
/** @see CompletionEvaluationSchema */
export type CompletionEvaluation = z.infer<typeof CompletionEvaluationSchema>;

/** The design's weights: information completeness 40%, intent match 40%, output quality 20%. */
export const COMPLETION_WEIGHTS = { completeness: 0.4, intentMatch: 0.4, quality: 0.2 } as const;

/** The overall score of an evaluation, weighted in code (never by the model), rounded to 3 decimals. */
export function overallScore(e: CompletionEvaluation): number {
  const sum =
    e.completeness.score * COMPLETION_WEIGHTS.completeness +
    e.intentMatch.score * COMPLETION_WEIGHTS.intentMatch +
    e.quality.score * COMPLETION_WEIGHTS.quality;
  return Math.round(sum * 1000) / 1000;
}

/** A code artifact: the code, its language and what it does. */
export const CodeArtifactSchema = z.object({
  language: z.string().min(1).max(40),
  code: z.string().min(1),
  explanation: z.string(),
});
/** @see CodeArtifactSchema */
export type CodeArtifact = z.infer<typeof CodeArtifactSchema>;

/**
 * The person's review of a level's task list: approve it (optionally edited: as with the planner's list, the
 * `maxParallel` of highest priority run and the others are listed as dropped), or stop the session (the final
 * output is then written from what exists). There is no expiry: the gate waits.
 */
export const ReviewDivergentTasksReplySchema = z.union([
  z.object({ action: z.literal('approve'), tasks: z.array(PlannedTaskSchema).max(MAX_PROPOSED_TASKS).optional() }),
  z.object({ action: z.literal('stop') }),
]);
/** @see ReviewDivergentTasksReplySchema */
export type ReviewDivergentTasksReply = z.infer<typeof ReviewDivergentTasksReplySchema>;
