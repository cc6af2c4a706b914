import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Language } from '@thinkingmap/db';
import { z } from 'zod';
import { createMap } from '../../maps/map-commands.ts';
import { understandProblem } from '../../runs/start-runs.ts';
import { agentOutcome, DEFAULT_WAIT_SECONDS, describeOutcome, waitSecondsArg } from '../agent-outcome.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';

/** Registers `create_map`: a problem becomes a map, and the problem-understanding agent starts on it. */
export function registerCreateMapTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'create_map',
    {
      title: 'Create a thinking map',
      description:
        'Creates a thinking map for a problem and starts the problem-understanding agent, which restates the ' +
        'problem and asks you to confirm it (a `confirm-understanding` question: answer with reply_to_agent). ' +
        'Once confirmed, the map has its root node. The language is detected unless given.',
      inputSchema: {
        problem: z
          .string()
          .optional()
          .describe('The problem to think through, in the words of the person (or give a title)'),
        title: z.string().optional().describe('Taken from the first line of the problem when omitted'),
        goal: z.string().optional(),
        constraints: z.array(z.string()).optional(),
        language: z.enum(Language).optional().describe('Detected from the problem when omitted'),
        understand: z.boolean().optional().describe('Start problem understanding (default true)'),
        waitSeconds: waitSecondsArg(),
      },
    },
    ({ understand, waitSeconds, ...fields }) =>
      runTool(async () => {
        const map = await createMap(ctx.commands, fields);
        const summary = { map: { id: map.id, title: map.title, language: map.language, status: map.status } };
        if (!map.problem || understand === false) return toolResult(summary, `Created map ${map.id}.`);
        const run = await understandProblem(ctx.runs, ctx.commands, map.id);
        const outcome = await agentOutcome(ctx.commands, run, waitSeconds ?? DEFAULT_WAIT_SECONDS);
        return toolResult({ ...summary, ...outcome }, `Created map ${map.id}. ${describeOutcome(outcome)}`);
      }, ctx.logError),
  );
}
