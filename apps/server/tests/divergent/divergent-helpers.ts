import { CREATE_MAP, CREATE_NODE, DIVERGENT_SESSION } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { eventually } from '../helpers/agent-driver.ts';
import { type SchemaAnswer, startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call } from '../helpers/test-server.ts';

/** A planned task as the scripted planner proposes it. */
export const task = (name: string, priority = 3) => ({ name, query: `find out ${name}`, skill: 'commonQnA', priority });

/** An evaluation scoring every dimension `score`. */
export const scored = (score: number, why = 'because') => ({
  completeness: { score, reason: `${why}: completeness ${score}` },
  intentMatch: { score, reason: `${why}: intent ${score}` },
  quality: { score, reason: `${why}: quality ${score}` },
});

/**
 * The OpenAI-compatible scripted model of a divergent session: plans and scores by call number; free text
 * by what the prompt asks (summary, a task's result, the final document). `text` may delay or fail a task.
 */
export function divergentModel(options: {
  plans: object[][];
  scores: number[];
  task?: (name: string, call: number) => object | undefined;
  /** How long a task may stay silent (a held task: longer than the default 2 s). */
  timeoutMs?: number;
  /** The final document the model writes (default: one citing L1.T1). */
  final?: string;
}) {
  let summaries = 0;
  const taskCalls = new Map<string, number>();
  const text: SchemaAnswer = (prompt) => {
    if (/summary agent|总结 Agent/.test(prompt)) return { content: `summary ${summaries++}`, chunkSize: 8 };
    if (/final output of a divergent|最终输出/.test(prompt))
      return { content: options.final ?? '# Final document\nSee [L1.T1].' };
    const name = /(?:Task|任务): (.+)/.exec(prompt)?.[1] ?? '?';
    const n = (taskCalls.get(name) ?? 0) + 1;
    taskCalls.set(name, n);
    return options.task?.(name, n) ?? { content: `result of ${name}`, chunkSize: 8 };
  };
  return startScriptedModel(
    {
      text,
      divergent_plan: (_prompt, n) => ({ rationale: 'close the gaps', tasks: options.plans[n - 1] ?? [] }),
      completion_evaluation: (_prompt, n) => scored(options.scores[n - 1] ?? 0),
      // A standard agent's conclusion, should one start on the map (a divergent session starts none).
      conclusion_draft: () => ({ kind: 'ANALYTICAL', conclusion: 'drafted', keyPoints: ['drafted'], confidence: 0.8 }),
      problem_understanding: () => ({
        title: 'Second café',
        problem: 'Where should the second café open?',
        goal: 'a shortlist of places',
        constraints: [],
      }),
    },
    { timeoutMs: options.timeoutMs },
  ).then((model) => ({
    ...model,
    taskCalls,
    /** The prompts (every message joined) of the requests the model received, in order. */
    prompts: () => model.server.requests.map((r) => (r.body.messages ?? []).map((m) => m.content).join('\n')),
  }));
}

/** A map with a root question, in `language`. */
export async function rootOf(client: Client, question: string, language: 'en' | 'zh' = 'en') {
  const map = await call(client, CREATE_MAP, { input: { title: question, language } });
  const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
  return { mapId: map.id as string, rootId: root.id as string };
}

/** Waits until the session satisfies `check`, and returns it. */
export function waitForSession<T>(
  client: Client,
  id: string,
  check: (session: Awaited<ReturnType<typeof readSession>>) => T | null | undefined | false,
  what: string,
) {
  return eventually(async () => check(await readSession(client, id)), what, 90_000);
}

/** Waits (bounded: a whole session on a loaded machine) until the session's run reaches `status`. */
export function waitForSessionStatus(client: Client, id: string, status: string) {
  return waitForSession(client, id, (s) => s.status === status && s, `the session to be ${status}`);
}

/** The session through the API. */
export async function readSession(client: Client, id: string) {
  const session = await call(client, DIVERGENT_SESSION, { id });
  if (session.__typename !== 'DivergentSession') throw new Error(`not a session: ${session.__typename}`);
  return session;
}

/** A task's answer held after its first characters until `release` (the task stays RUNNING meanwhile). */
export function heldAnswer(content: string) {
  let release!: () => void;
  const resume = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: { content, chunkSize: 4, pauseAfterChars: 4, resume }, release };
}
