import {
  ADD_DIVERGENT_FEEDBACK,
  ADD_DIVERGENT_TASK,
  DIVERGENT_SKILLS,
  type ResultOf,
  SET_DIVERGENT_THRESHOLD,
  SKIP_DIVERGENT_TASK,
  START_DIVERGENT,
  STOP_DIVERGENT,
} from '@thinkingmap/client';
import { isOneOf } from '@thinkingmap/db/enums';
import type { Client } from '@urql/core';
import type { ApiError } from '../api/api-error.ts';
import { recordOf } from '../api/json.ts';
import { type ApiResult, runMutation, runQuery } from '../api/request.ts';
import type { DivergentSessionData } from './divergent-sessions.svelte.ts';

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
  const c = recordOf(context);
  const tasks = Array.isArray(c.tasks) ? c.tasks : [];
  return {
    level: typeof c.level === 'number' ? c.level : 1,
    rationale: typeof c.rationale === 'string' ? c.rationale : '',
    maxParallel: typeof c.maxParallel === 'number' ? c.maxParallel : 8,
    tasks: tasks.map((t) => {
      const task = recordOf(t);
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
  return isOneOf(SKILLS, skill) ? (`divergent.skill.${skill}` as const) : ('divergent.skill.other' as const);
}

/** A skill as the server offers it: available, or why not (no knowledge server, no search provider). */
export type SkillInfo = ResultOf<typeof DIVERGENT_SKILLS>['divergentSkills'][number];

/** The skills this server offers, and why the others are not (read once per page). */
let skills: Promise<SkillInfo[]> | null = null;
export function divergentSkills(client: Client): Promise<SkillInfo[]> {
  skills ??= runQuery(client, DIVERGENT_SKILLS).then((result) => {
    if (result.ok) return [...result.value];
    skills = null;
    return [];
  });
  return skills;
}

/** What a steering command answers: the session as it is now, or the API's refusal. */
type Steered = Promise<ApiResult<DivergentSessionData>>;

function session<T extends DivergentSessionData>(result: Promise<ApiResult<T>>): Steered {
  return result;
}

/** The person's steering of a running session: each recorded as a `DivergentSteered` event. */
export const steer = {
  /** Stops gracefully: running tasks are skipped, a final output is written from what exists. */
  stop: (client: Client, sessionId: string) => session(runMutation(client, STOP_DIVERGENT, { input: { sessionId } })),
  /** Skips a planned or running task. */
  skipTask: (client: Client, sessionId: string, taskKey: string) =>
    session(runMutation(client, SKIP_DIVERGENT_TASK, { input: { sessionId, taskKey } })),
  /** Adds a task to the level being planned or reviewed, else the next. */
  addTask: (client: Client, sessionId: string, task: ReviewTask) =>
    session(
      runMutation(client, ADD_DIVERGENT_TASK, {
        input: {
          sessionId,
          name: task.name,
          query: task.query,
          skill: task.skill as (typeof SKILLS)[number],
          priority: task.priority,
        },
      }),
    ),
  /** Changes the completion threshold the next score is compared with. */
  setThreshold: (client: Client, sessionId: string, threshold: number) =>
    session(runMutation(client, SET_DIVERGENT_THRESHOLD, { input: { sessionId, threshold } })),
  /** Feedback the next summary must take into account. */
  addFeedback: (client: Client, sessionId: string, text: string) =>
    session(runMutation(client, ADD_DIVERGENT_FEEDBACK, { input: { sessionId, text } })),
};
