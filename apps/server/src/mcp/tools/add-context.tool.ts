import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addContextItem } from '../../maps/conversation-commands.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';

/** Registers `add_context`: context the agents consider on a node (and its descendants). */
export function registerAddContextTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'add_context',
    {
      title: 'Add context to a node',
      description:
        'Adds a piece of context (facts, notes, a document excerpt) that the agents consider when they process the node.',
      inputSchema: {
        nodeId: z.string(),
        content: z.string(),
        title: z.string().optional(),
      },
    },
    (input) =>
      runTool(async () => {
        const item = await addContextItem(ctx.commands, input);
        const contextItem = { id: item.id, nodeId: item.nodeId, title: item.title, content: item.content };
        return toolResult({ contextItem }, `Added context ${item.id} to node ${item.nodeId}.`);
      }, ctx.logError),
  );
}
