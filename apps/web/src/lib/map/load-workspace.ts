import { PENDING_QUESTIONS, RUNS, WORKSPACE_MAP } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { runQuery } from '../api/request.ts';

/**
 * Everything a map's workspace shows first, asked for at once: the map with its nodes and dependencies, its
 * runs and the questions waiting. Later changes arrive as the map's events.
 */
export function loadWorkspace(client: Client, mapId: string) {
  return Promise.all([
    runQuery(client, WORKSPACE_MAP, { id: mapId }),
    runQuery(client, RUNS, { mapId }),
    runQuery(client, PENDING_QUESTIONS, { mapId }),
  ]).then(([map, runs, questions]) => ({ map, runs, questions }));
}

/** What {@link loadWorkspace} resolves with. */
export type WorkspaceLoad = Awaited<ReturnType<typeof loadWorkspace>>;
