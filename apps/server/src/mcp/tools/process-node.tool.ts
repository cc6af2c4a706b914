import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConclusionKind, DecompositionStrategy, NodeIntent } from '@thinkingmap/db';
import { z } from 'zod';
import { processNode } from '../../runs/start-runs.ts';
import { runAgentTool, waitSecondsArg } from '../agent-outcome.ts';
import type { McpContext } from '../mcp-context.ts';

/** Registers `process_node`: starts the agents on a node. */
export function registerProcessNodeTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'process_node',
    {
      title: 'Process a node with the agents',
      description:
        'Starts the agents on a node: context → dependency check → intent (decompose, conclude, explore, clarify) → ' +
        'strategy and sub-questions, or a conclusion. The agents pause with questions (review-decomposition, ' +
        'review-conclusion, clarify) that you answer with reply_to_agent. Override any choice with intent, strategy ' +
        'or conclusionKind. Refused with CONFLICT while the node already has a run.',
      inputSchema: {
        nodeId: z.string(),
        intent: z.enum(NodeIntent).optional().describe('What to do with the node, instead of letting the agent choose'),
        strategy: z.enum(DecompositionStrategy).optional().describe('How to split the node, when it is decomposed'),
        conclusionKind: z.enum(ConclusionKind).optional().describe('The kind of conclusion to draft'),
        waitSeconds: waitSecondsArg(),
      },
    },
    ({ waitSeconds, ...input }) => runAgentTool(ctx, () => processNode(ctx.runs, ctx.commands, input), waitSeconds),
  );
}
