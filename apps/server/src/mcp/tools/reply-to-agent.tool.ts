import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { replyToQuestion } from '../../runs/reply-to-question.ts';
import { runAgentTool, waitSecondsArg } from '../agent-outcome.ts';
import type { McpContext } from '../mcp-context.ts';

/** Registers `reply_to_agent`: answers a waiting question, and its run resumes. */
export function registerReplyToAgentTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'reply_to_agent',
    {
      title: 'Answer an agent',
      description:
        "Answers a question an agent waits on (its requestId is in get_map's pendingQuestions). `accept: true` " +
        'confirms the restated problem, approves the sub-questions or accepts the conclusion; `text` answers a ' +
        'clarifying question, corrects the restatement, rejects sub-questions or asks for another draft, with ' +
        'your words as feedback; `skip: true` skips a clarifying question (the run goes on with what it has); ' +
        '`reply` is the exact reply object for the question kind. An expired review or confirmation can still be ' +
        'answered: its run paused and resumes.',
      inputSchema: {
        requestId: z.string(),
        accept: z.boolean().optional(),
        text: z.string().optional(),
        skip: z.boolean().optional(),
        reply: z.record(z.string(), z.unknown()).optional(),
        waitSeconds: waitSecondsArg(),
      },
    },
    ({ requestId, waitSeconds, ...shortcut }) =>
      runAgentTool(ctx, () => replyToQuestion(ctx.runs, ctx.commands, requestId, shortcut), waitSeconds),
  );
}
