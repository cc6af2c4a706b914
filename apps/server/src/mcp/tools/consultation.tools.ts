import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AgentGraph, ConsultationStage, ConsultationStrategy } from '@thinkingmap/db';
import { z } from 'zod';
import { loadConsultationSnapshot } from '../consultation-snapshot.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';
import { MAX_WAIT_SECONDS, waitUntil } from '../wait-for-agents.ts';

const waitSeconds = z
  .number()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .optional()
  .describe(
    `How long to wait for the front agent's reply to be stored (or, while the problem is being understood, for ` +
      `the confirmation question) before answering (default 20, 0 = do not wait, at most ${MAX_WAIT_SECONDS}). ` +
      'The planner goes on behind: read get_consultation later for its records, notes and proposals.',
  );

/**
 * Registers `start_consultation`, `send_consultation_message` and `get_consultation`: the conversational way
 * into a map (a front agent that answers at once, a planner behind it; design 003).
 */
export function registerConsultationTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'start_consultation',
    {
      title: 'Start a consultation',
      description:
        'Opens a consultation: a front agent answers each message at once while a planner keeps a plan and writes ' +
        'records, notes and sub-question proposals for the map (the person reviews those with reply_to_agent). With ' +
        'mapId it consults on that map; without, the first message is the problem: a map is created with it and ' +
        'its understanding waits for the person to confirm (understandingQuestion, answered with reply_to_agent). ' +
        'strategy says what a message sent while a turn runs does: INTERRUPT (default), ENQUEUE or REJECT.',
      inputSchema: {
        mapId: z.string().optional().describe('The map to consult on; omit to start from a problem'),
        strategy: z.enum(ConsultationStrategy).optional(),
      },
    },
    (input) =>
      runTool(async () => {
        const row = await ctx.consultations.start(ctx.commands, input);
        const snapshot = await loadConsultationSnapshot(ctx.commands, ctx.notes, row.id);
        return toolResult(snapshot, `Consultation ${row.id} started (${row.stage.toLowerCase()}).`);
      }, ctx.logError),
  );

  server.registerTool(
    'send_consultation_message',
    {
      title: 'Send a message to a consultation',
      description:
        "Sends the person's message and waits (bounded) until the front agent's reply is stored; answers with the " +
        'reply, the plan and the current step. The first message of a consultation started without a map is its ' +
        'problem: the answer is then the understanding to confirm (understandingQuestion). Refused with CONFLICT ' +
        'while a turn runs when the strategy is REJECT.',
      inputSchema: {
        consultationId: z.string(),
        text: z.string(),
        waitSeconds,
      },
    },
    ({ waitSeconds: seconds, ...input }) =>
      runTool(async () => {
        const sent = await ctx.consultations.send(ctx.commands, input);
        const stored = await ctx.commands.db.read.consultationMessage.findUniqueOrThrow({
          where: { id: sent.message.id },
          include: { consultation: { select: { mapId: true } } },
        });
        const mapId = stored.consultation.mapId;
        if (!mapId) throw new Error(`consultation ${input.consultationId} has no map`);
        let turnEnded = false;
        void sent.turn.then(() => {
          turnEnded = true;
        });
        const settled = async () => {
          const row = await ctx.commands.db.read.consultation.findUniqueOrThrow({
            where: { id: input.consultationId },
            select: { stage: true },
          });
          if (row.stage === ConsultationStage.UNDERSTANDING) {
            // Answered when the understanding run waits for the person (or ended).
            const running = await ctx.commands.db.read.agentRun.count({
              where: { consultationId: input.consultationId, agent: AgentGraph.UNDERSTAND_PROBLEM, status: 'RUNNING' },
            });
            return running === 0;
          }
          if (turnEnded) return true;
          // A reply to an earlier message, stored after this one was sent (ENQUEUE), is not its reply.
          const replies = await ctx.commands.db.read.consultationMessage.count({
            where: {
              consultationId: input.consultationId,
              role: 'ASSISTANT',
              createdAt: { gte: stored.createdAt },
              OR: [{ answersId: null }, { answersId: sent.message.id }],
            },
          });
          return replies > 0;
        };
        await waitUntil(
          ctx.commands,
          mapId,
          seconds ?? 20,
          settled,
          (event) =>
            event.type === 'ConsultationChanged' || event.type === 'AgentQuestion' || event.type.startsWith('Run'),
        );
        const snapshot = await loadConsultationSnapshot(ctx.commands, ctx.notes, input.consultationId);
        const mine = snapshot.messages.findIndex((m) => m.id === sent.message.id);
        const earlier = new Set(snapshot.messages.slice(0, mine).map((m) => m.id));
        const reply =
          snapshot.messages
            .slice(mine + 1)
            .find((m) => m.role === 'ASSISTANT' && !(m.answersId && earlier.has(m.answersId)))?.text ?? null;
        const result = { messageId: sent.message.id, reply, ...snapshot };
        const summary =
          snapshot.stage === ConsultationStage.UNDERSTANDING
            ? `Waiting for the person to confirm the understanding: ${snapshot.understandingQuestion?.requestId ?? '(not asked yet)'}`
            : reply
              ? `Reply: ${reply}`
              : 'No reply stored yet: read get_consultation later.';
        return toolResult(result, summary);
      }, ctx.logError),
  );

  server.registerTool(
    'get_consultation',
    {
      title: 'Read a consultation',
      description:
        'A consultation as it stands: stage, the latest messages, the plan and the current step, progress lines, ' +
        "records, notes (with their download path), the understanding to confirm and the planner's sub-question " +
        'proposals waiting at review.',
      inputSchema: { consultationId: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ consultationId }) =>
      runTool(async () => {
        const snapshot = await loadConsultationSnapshot(ctx.commands, ctx.notes, consultationId);
        return toolResult(snapshot, `Consultation ${snapshot.id} (${snapshot.stage.toLowerCase()}).`);
      }, ctx.logError),
  );
}
