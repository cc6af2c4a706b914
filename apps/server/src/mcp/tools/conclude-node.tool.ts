import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConclusionKind } from '@thinkingmap/db';
import { z } from 'zod';
import { setConclusion } from '../../maps/conclusion-commands.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';

/** Registers `conclude_node`: writes a node's conclusion by hand and completes it. */
export function registerConcludeNodeTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'conclude_node',
    {
      title: 'Conclude a node',
      description:
        "Sets a node's conclusion yourself and completes it: the nodes that depend on it are released, a parent " +
        'whose children are all concluded gets its conclusion started by the agents, and the map completes when ' +
        'the root concludes.',
      inputSchema: {
        nodeId: z.string(),
        conclusion: z.string(),
        kind: z.enum(ConclusionKind).optional(),
      },
    },
    (input) =>
      runTool(async () => {
        const node = await setConclusion(ctx.commands, input);
        const summary = {
          id: node.id,
          status: node.status,
          conclusion: node.conclusion,
          conclusionKind: node.conclusionKind,
        };
        return toolResult({ node: summary }, `Concluded node ${node.id}.`);
      }, ctx.logError),
  );
}
