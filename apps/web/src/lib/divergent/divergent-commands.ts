import { START_DIVERGENT } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import type { ApiError } from '../api/api-error.ts';
import { runMutation } from '../api/request.ts';

/** How a divergent session runs (each bounded by the API: 1–5 levels, 1–8 tasks, a threshold in 0–1). */
export interface DivergentOptions {
  maxLevels: number;
  maxParallel: number;
  threshold: number;
  reviewEachLevel: boolean;
}

/** The API's defaults, shown first in the dialog. */
export const DIVERGENT_DEFAULTS: DivergentOptions = {
  maxLevels: 5,
  maxParallel: 8,
  threshold: 0.9,
  reviewEachLevel: true,
};

/** Starts a divergent session on a node: its run's id (the session's id), or the API's refusal. */
export async function startDivergent(
  client: Client,
  nodeId: string,
  options: DivergentOptions,
): Promise<{ ok: true; id: string } | { ok: false; error: ApiError }> {
  const result = await runMutation(client, START_DIVERGENT, { input: { nodeId, ...options } });
  return result.ok ? { ok: true, id: result.value.id } : result;
}

/** A task as the review gate proposes it and accepts it back. */
export interface ReviewTask {
  name: string;
  query: string;
  skill: string;
  priority: number;
}

/** The context of a `review-divergent-tasks` question, read defensively (it arrives as JSON). */
export function reviewContextOf(context: unknown): {
  level: number;
  tasks: ReviewTask[];
  rationale: string;
  maxParallel: number;
} {
  const c = (context ?? {}) as Record<string, unknown>;
  const tasks = Array.isArray(c.tasks) ? c.tasks : [];
  return {
    level: typeof c.level === 'number' ? c.level : 1,
    rationale: typeof c.rationale === 'string' ? c.rationale : '',
    maxParallel: typeof c.maxParallel === 'number' ? c.maxParallel : 8,
    tasks: tasks.map((t) => {
      const task = (t ?? {}) as Record<string, unknown>;
      return {
        name: String(task.name ?? ''),
        query: String(task.query ?? ''),
        skill: String(task.skill ?? 'commonQnA'),
        priority: typeof task.priority === 'number' ? task.priority : 3,
      };
    }),
  };
}

/** The skills in the order the dialogs list them. */
export const SKILLS = ['librarySearch', 'webSearch', 'commonQnA', 'generateDoc', 'codeArtifacts'] as const;

/** The message key naming a skill (never its identifier). */
export function skillKey(skill: string) {
  return (SKILLS as readonly string[]).includes(skill)
    ? (`divergent.skill.${skill as (typeof SKILLS)[number]}` as const)
    : ('divergent.skill.other' as const);
}
