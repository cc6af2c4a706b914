import type { PENDING_QUESTION_FIELDS } from '@thinkingmap/client';
import {
  CREATE_MAP,
  CREATE_NODE,
  NODE,
  PENDING_QUESTIONS,
  PROCESS_NODE,
  type ResultOf,
  RUNS,
  type SchemaEnum,
  type VariablesOf,
} from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { vi } from 'vitest';
import { call } from './test-server.ts';

/** A question as pendingQuestions returns it. */
export type Question = ResultOf<typeof PENDING_QUESTION_FIELDS>;

/**
 * Waits until `check` returns a value (bounded: `timeoutMs`), checking again whenever the last check
 * settled. A check that throws counts as "not yet" (a client's pooled socket to a restarted server fails
 * once), and the last error is reported.
 */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  what: string,
  // Generous: a loaded 2-core CI machine runs two server files at once; the wait ends as soon as the condition holds.
  timeoutMs = 20_000,
): Promise<T> {
  let lastError: unknown;
  try {
    return await vi.waitFor(
      async () => {
        let value: T | null | undefined | false;
        try {
          value = await check();
        } catch (error) {
          lastError = error;
        }
        if (!value) throw new Error('not yet');
        return value;
      },
      { timeout: timeoutMs, interval: 20 },
    );
  } catch {
    throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`);
  }
}

/** Waits for a pending question (of `kind`, on `nodeId` when given). */
export async function waitForQuestion(
  client: Client,
  mapId: string,
  match: { kind?: string; nodeId?: string | null } = {},
): Promise<Question> {
  try {
    return await eventually(
      async () => {
        const { data: questions } = await call(client, PENDING_QUESTIONS, { mapId });
        return questions.find(
          (q) => (!match.kind || q.kind === match.kind) && (match.nodeId === undefined || q.nodeId === match.nodeId),
        );
      },
      `a ${match.kind ?? ''} question`,
    );
  } catch (error) {
    // Say what the runs were doing instead: the failure then names its cause.
    const runs = (await call(client, RUNS, { mapId })).data;
    const pending = (await call(client, PENDING_QUESTIONS, { mapId })).data;
    throw new Error(
      `${(error as Error).message}; runs: ${JSON.stringify(runs.map((r) => [r.agent, r.nodeId, r.status, r.errorCode, r.error]))}; pending: ${JSON.stringify(pending.map((q) => [q.kind, q.nodeId]))}`,
    );
  }
}

/** Waits until a run reaches one of `statuses`, and returns it. */
export function waitForRun(client: Client, mapId: string, runId: string, statuses: SchemaEnum<'RunStatus'>[]) {
  return eventually(
    async () => {
      const { data: runs } = await call(client, RUNS, { mapId });
      const run = runs.find((r) => r.id === runId);
      return run && statuses.includes(run.status) ? run : null;
    },
    `run ${runId} to be ${statuses.join('/')}`,
  );
}

/** Waits until a node has `status`. */
export function waitForNodeStatus(client: Client, nodeId: string, status: SchemaEnum<'NodeStatus'>) {
  return eventually(async () => {
    const node = await call(client, NODE, { id: nodeId });
    return node.status === status ? node : null;
  }, `node ${nodeId} to be ${status}`);
}

/**
 * Creates a map whose root is `question`, processes the root (with an optional intent override) and waits
 * until its drafted conclusion waits for the person's review.
 */
export async function processRootUntilReview(
  client: Client,
  question: string,
  intent?: VariablesOf<typeof PROCESS_NODE>['intent'],
) {
  const map = await call(client, CREATE_MAP, { input: { problem: question, understand: false } });
  const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
  const run = await call(client, PROCESS_NODE, { nodeId: root.id, ...(intent ? { intent } : {}) });
  const review = await waitForQuestion(client, map.id, { kind: 'review-conclusion', nodeId: root.id });
  return { map, root, run, review };
}
