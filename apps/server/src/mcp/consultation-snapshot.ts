import { AgentGraph } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { id, parseInput } from '../commands/input.ts';
import { assertConsultationAccess } from '../consultations/consultation-access.ts';
import { consultationLogs, consultationPlan } from '../consultations/consultation-columns.ts';
import type { FileNotes } from '../consultations/file-notes.ts';
import { noteDownloadPath } from '../consultations/note-download.ts';
import { ANSWERABLE_QUESTION } from '../runs/answerable-questions.ts';
import { type QuestionSummary, summarizeQuestion } from './map-snapshot.ts';

/** How many of the latest messages and progress lines a consultation snapshot carries. */
const RECENT = { messages: 30, logs: 20 } as const;

/** A consultation as the MCP tools report it (reads only). */
export interface ConsultationSnapshot extends Record<string, unknown> {
  id: string;
  mapId: string | null;
  stage: string;
  strategy: string;
  busy: boolean;
  plan: string[];
  currentStep: number;
  /** The step in progress, in words ('' before the planner made a plan). */
  step: string;
  context: unknown;
  /** `answersId`: for a reply, the person's message it answers. */
  messages: { id: string; role: string; text: string; planned: boolean; answersId: string | null }[];
  logs: { at: string; text: string }[];
  records: { id: string; kind: string; content: string; sourceMessageId: string | null; version: number }[];
  notes: { path: string; size: number; downloadUrl: string }[];
  /** While UNDERSTANDING: the confirmation to answer with reply_to_agent (accept, or a correction as text). */
  understandingQuestion: QuestionSummary | null;
  /** The planner's sub-question proposals, each a run waiting at (or past) the decomposition review. */
  proposals: { runId: string; nodeId: string | null; status: string; question: QuestionSummary | null }[];
}

/** Reads a consultation of the viewer: NotFound for an unknown id, Forbidden for someone else's. */
export async function loadConsultationSnapshot(
  ctx: CommandContext,
  notes: FileNotes,
  consultationId: unknown,
): Promise<ConsultationSnapshot> {
  const parsed = parseInput(z.object({ consultationId: id }), { consultationId }).consultationId;
  const row = assertConsultationAccess(
    ctx,
    await ctx.db.read.consultation.findUnique({
      where: { id: parsed },
      include: {
        messages: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: RECENT.messages },
        records: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
        runs: {
          orderBy: { createdAt: 'asc' },
          include: { questions: { where: ANSWERABLE_QUESTION, orderBy: { createdAt: 'asc' } } },
        },
      },
    }),
    parsed,
  );
  const plan = consultationPlan.parse(row.plan);
  const understanding = row.runs.filter((r) => r.agent === AgentGraph.UNDERSTAND_PROBLEM).at(-1);
  const mapId = row.mapId;
  const files = mapId
    ? (await notes.list(mapId)).map((n) => ({
        path: n.path,
        size: n.size,
        downloadUrl: noteDownloadPath(mapId, n.path),
      }))
    : [];
  return {
    id: row.id,
    mapId: row.mapId,
    stage: row.stage,
    strategy: row.strategy,
    busy: row.busy,
    plan,
    currentStep: row.currentStep,
    step: plan[row.currentStep] ?? '',
    context: row.context,
    messages: row.messages
      .reverse()
      .map((m) => ({ id: m.id, role: m.role, text: m.text, planned: m.planned, answersId: m.answersId })),
    logs: consultationLogs.parse(row.logs).slice(-RECENT.logs),
    records: row.records.map((r) => ({
      id: r.id,
      kind: r.kind,
      content: r.content,
      sourceMessageId: r.sourceMessageId,
      version: r.version,
    })),
    notes: files,
    understandingQuestion: understanding?.questions[0] ? summarizeQuestion(understanding.questions[0]) : null,
    proposals: row.runs
      .filter((r) => r.agent === AgentGraph.PROCESS_NODE)
      .map((r) => ({
        runId: r.id,
        nodeId: r.nodeId,
        status: r.status,
        question: r.questions[0] ? summarizeQuestion(r.questions[0]) : null,
      })),
  };
}
