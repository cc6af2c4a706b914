import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderMapMarkdown } from '@thinkingmap/map-markdown';
import { z } from 'zod';
import { loadMapSnapshot, loadViewerMap } from '../map-snapshot.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';
import { MAX_WAIT_SECONDS, waitForAgents } from '../wait-for-agents.ts';

/** Registers `get_map`: the whole map as Markdown (text) and as a JSON summary (structured content). */
export function registerGetMapTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'get_map',
    {
      title: 'Read a thinking map',
      description:
        'Reads a map: problem, goal, constraints, every node with its status, dependencies, context and ' +
        'conclusion, the questions the agents wait on (answer them with reply_to_agent) and the recent runs. ' +
        'Text is Markdown; structured content is the same as JSON.',
      inputSchema: {
        mapId: z.string(),
        waitSeconds: z
          .number()
          .min(0)
          .max(MAX_WAIT_SECONDS)
          .optional()
          .describe(
            'Wait until no agent of the map is running (a question is asked or every run ended), at most this long',
          ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ mapId, waitSeconds }) =>
      runTool(async () => {
        const map = await loadViewerMap(ctx.commands, mapId);
        await waitForAgents(ctx.commands, map.id, waitSeconds ?? 0);
        const snapshot = await loadMapSnapshot(ctx.commands, ctx.notes, map.id);
        return toolResult({ ...snapshot }, undefined, renderMapMarkdown(snapshot));
      }, ctx.logError),
  );
}
