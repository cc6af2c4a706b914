import { AGENT_GRAPHS } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { type ApiResult, runQuery } from '../api/request.ts';
import type { AgentGraph } from './run-graph.ts';

let loaded: Promise<ApiResult<AgentGraph[]>> | null = null;

/** The agents' graphs (they do not change while the server runs): read once, shared by every run view. */
export function loadAgentGraphs(client: Client): Promise<ApiResult<AgentGraph[]>> {
  loaded ??= runQuery(client, AGENT_GRAPHS).then((result) => {
    if (!result.ok) loaded = null; // read again next time
    return result;
  });
  return loaded;
}
