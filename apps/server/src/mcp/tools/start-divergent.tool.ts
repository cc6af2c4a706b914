import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DIVERGENT_LIMITS } from '@thinkingmap/agent-core';
import { z } from 'zod';
import { startDivergent } from '../../runs/start-runs.ts';
import { runAgentTool, waitSecondsArg } from '../agent-outcome.ts';
import type { McpContext } from '../mcp-context.ts';

/** Registers `start_divergent`: divergent exploration on a node. */
export function registerStartDivergentTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'start_divergent',
    {
      title: 'Explore a node divergently',
      description:
        'Starts divergent exploration on a node: a summary, then per level up to maxParallel parallel tasks ' +
        '(library search, analysis, documents, code), a converging summary scored for completion (information ' +
        'completeness 40%, intent match 40%, output quality 20%), until the threshold or maxLevels, then a final ' +
        'Markdown document as a node. With reviewEachLevel each level waits for review-divergent-tasks, answered ' +
        'with reply_to_agent ({"action":"approve","tasks":[…]} or {"action":"stop"}). The run id is the session id.',
      inputSchema: {
        nodeId: z.string(),
        maxLevels: z.number().int().min(1).max(DIVERGENT_LIMITS.maxLevels).optional().describe('Default 5'),
        maxParallel: z.number().int().min(1).max(DIVERGENT_LIMITS.maxParallel).optional().describe('Default 8'),
        threshold: z.number().min(0).max(1).optional().describe('Completion score that ends the loop, default 0.9'),
        reviewEachLevel: z.boolean().optional().describe('Wait for your approval of each level’s tasks'),
        waitSeconds: waitSecondsArg(),
      },
    },
    ({ waitSeconds, ...input }) => runAgentTool(ctx, () => startDivergent(ctx.runs, ctx.commands, input), waitSeconds),
  );
}
