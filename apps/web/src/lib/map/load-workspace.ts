import { PENDING_QUESTIONS, RUNS, WORKSPACE_MAP } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { fetchRequestOf } from '../api/preload.ts';
import { runQuery } from '../api/request.ts';

/** The reads a map's workspace starts with: the map with its nodes and dependencies, its runs, the questions waiting. */
const reads = (mapId: string) =>
  ({
    map: [WORKSPACE_MAP, { id: mapId }],
    runs: [RUNS, { mapId }],
    questions: [PENDING_QUESTIONS, { mapId }],
  }) as const;

/**
 * Everything a map's workspace shows first, asked for at once. Later changes arrive as the map's events.
 */
export function loadWorkspace(client: Client, mapId: string) {
  const { map, runs, questions } = reads(mapId);
  return Promise.all([runQuery(client, ...map), runQuery(client, ...runs), runQuery(client, ...questions)]).then(
    ([map, runs, questions]) => ({ map, runs, questions }),
  );
}

/**
 * The map's runs and waiting questions read again on their own, once the map's first read has answered: what
 * `AgentActivity.catchUp` seeds from (null when either read failed).
 */
export async function readAgents(client: Client, mapId: string) {
  const { runs, questions } = reads(mapId);
  const [r, q] = await Promise.all([runQuery(client, ...runs), runQuery(client, ...questions)]);
  if (!r.ok || !q.ok) return null;
  const both: [typeof r.value.data, typeof q.value.data] = [r.value.data, q.value.data];
  return both;
}

/** The same reads as the requests urql sends, for the page to start before its code has loaded. */
export function workspaceRequests(mapId: string) {
  const { map, runs, questions } = reads(mapId);
  return [fetchRequestOf(...map), fetchRequestOf(...runs), fetchRequestOf(...questions)];
}

/** What {@link loadWorkspace} resolves with. */
export type WorkspaceLoad = Awaited<ReturnType<typeof loadWorkspace>>;
