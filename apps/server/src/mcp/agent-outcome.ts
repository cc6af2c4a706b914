import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRun } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ANSWERABLE_QUESTION } from '../runs/answerable-questions.ts';
import { type QuestionSummary, type RunSummary, summarizeQuestion, summarizeRun } from './map-snapshot.ts';
import type { McpContext } from './mcp-context.ts';
import { runTool, toolResult } from './tool-result.ts';
import { MAX_WAIT_SECONDS, waitForAgents } from './wait-for-agents.ts';

/** How long a tool that starts or resumes agents waits for them when `waitSeconds` is not given. */
export const DEFAULT_WAIT_SECONDS = 15;

/** The `waitSeconds` argument shared by the tools that start or resume agents. */
export const waitSecondsArg = (fallback = DEFAULT_WAIT_SECONDS) =>
  z
    .number()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .optional()
    .describe(
      `How long to wait for the agents to ask a question or finish before answering (default ${fallback}, 0 = do not wait, ` +
        `at most ${MAX_WAIT_SECONDS}). A run still RUNNING afterwards goes on; read the map later with get_map.`,
    );

/** What a tool that started or resumed a run reports: the run as it stands, and what the map waits on. */
export interface AgentOutcome extends Record<string, unknown> {
  run: RunSummary;
  /** Every question of the map waiting for an answer (reply with reply_to_agent). */
  pendingQuestions: QuestionSummary[];
}

/** Waits (bounded) for `run` to pause or end, then reads it and the map's pending questions. */
export async function agentOutcome(ctx: CommandContext, run: AgentRun, waitSeconds: number): Promise<AgentOutcome> {
  await waitForAgents(ctx, run.mapId, waitSeconds, run.id);
  const [fresh, questions] = await Promise.all([
    ctx.db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } }),
    ctx.db.read.agentQuestion.findMany({
      where: { mapId: run.mapId, ...ANSWERABLE_QUESTION },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  return { run: summarizeRun(fresh), pendingQuestions: questions.map(summarizeQuestion) };
}

/** One line saying where a run stands, for the text part of a tool result. */
export function describeOutcome(outcome: AgentOutcome): string {
  const { run, pendingQuestions } = outcome;
  const mine = pendingQuestions.filter((q) => q.runId === run.id);
  if (mine.length)
    return `Run ${run.id} waits for an answer: ${mine.map((q) => `${q.kind} ${q.requestId}: ${q.question}`).join(' | ')}`;
  if (run.status === 'FAILED') return `Run ${run.id} failed (${run.errorCode}): ${run.error}`;
  return `Run ${run.id} is ${run.status.toLowerCase()}.`;
}

/**
 * The work of a tool that starts or resumes a run: `start` it, wait (at most `waitSeconds`) for it to pause or
 * end, and report where it stands ({@link agentOutcome}, {@link describeOutcome}); errors become tool errors.
 */
export function runAgentTool(
  ctx: McpContext,
  start: () => Promise<AgentRun>,
  waitSeconds = DEFAULT_WAIT_SECONDS,
): Promise<CallToolResult> {
  return runTool(async () => {
    const outcome = await agentOutcome(ctx.commands, await start(), waitSeconds);
    return toolResult(outcome, describeOutcome(outcome));
  }, ctx.logError);
}
