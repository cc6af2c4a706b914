import type { AgentQuestion, AgentRun, ConsultationRecord, ContextItem, Map as MapRow, Node } from '@thinkingmap/db';
import { treeOrder } from '@thinkingmap/map-graph';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ForbiddenError, NotFoundError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import type { FileNotes } from '../consultations/file-notes.ts';
import { strings } from '../maps/records.ts';
import { ANSWERABLE_QUESTION } from '../runs/answerable-questions.ts';
import { groupBy } from '../transfer/map-document.ts';

/** A node as MCP clients see it. */
export type NodeSummary = Pick<
  Node,
  | 'id'
  | 'parentId'
  | 'position'
  | 'question'
  | 'goal'
  | 'status'
  | 'statusReason'
  | 'intent'
  | 'conclusion'
  | 'conclusionKind'
  | 'staleReason'
  | 'staleSourceQuestion'
  | 'divergentRole'
  | 'divergentLevel'
  | 'completionScore'
> & {
  constraints: string[];
  /** Ids of the nodes this one waits for. */
  dependsOn: string[];
  contextItems: Pick<ContextItem, 'id' | 'title' | 'content'>[];
};

/** A question a paused run waits on; answer it with `reply_to_agent(requestId, ...)`. */
export type QuestionSummary = Pick<AgentQuestion, 'runId' | 'nodeId' | 'kind' | 'question' | 'context' | 'status'> & {
  requestId: string;
};

/** An agent run as MCP clients see it. */
export type RunSummary = Pick<AgentRun, 'id' | 'agent' | 'nodeId' | 'status' | 'errorCode' | 'error'>;

/**
 * A whole map: what `get_map` returns as JSON, and what `@thinkingmap/map-markdown` renders for `get_map`'s text
 * and the map's resource.
 */
export type MapSnapshot = Pick<MapRow, 'id' | 'title' | 'problem' | 'goal' | 'language' | 'status'> & {
  constraints: string[];
  /** Nodes in tree order (parents before children, siblings by position). */
  nodes: NodeSummary[];
  pendingQuestions: QuestionSummary[];
  /** The newest 20 runs, newest first. */
  runs: RunSummary[];
  /** The map's consultations, oldest first, with their records; and its notes with their Markdown, by path. */
  consultations: { id: string; records: Pick<ConsultationRecord, 'id' | 'kind' | 'content' | 'sourceMessageId'>[] }[];
  notes: { path: string; content: string }[];
};

/** The named fields of a row, and nothing else (what an MCP client sees of it). */
function pick<T, K extends keyof T>(row: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;
}

export const summarizeRun = (run: AgentRun): RunSummary =>
  pick(run, 'id', 'agent', 'nodeId', 'status', 'errorCode', 'error');

export const summarizeQuestion = (q: AgentQuestion): QuestionSummary => ({
  requestId: q.id,
  ...pick(q, 'runId', 'nodeId', 'kind', 'question', 'context', 'status'),
});

/** Loads a map the viewer owns: NotFound for an unknown id, Forbidden for someone else's map. */
export async function loadViewerMap(ctx: CommandContext, mapId: unknown): Promise<MapRow> {
  const parsed = parseInput(z.object({ mapId: id }), { mapId }).mapId;
  const map = await ctx.db.read.map.findUnique({ where: { id: parsed } });
  if (!map) throw new NotFoundError('Map', parsed);
  if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', parsed);
  return map;
}

/**
 * Reads a map with its nodes, dependencies, context, pending questions, recent runs, consultations' records
 * and notes (reads only).
 */
export async function loadMapSnapshot(ctx: CommandContext, notes: FileNotes, mapId: unknown): Promise<MapSnapshot> {
  const map = await loadViewerMap(ctx, mapId);
  const prisma = ctx.db.read;
  const [nodes, dependencies, contextItems, questions, runs, consultations, noteFiles] = await Promise.all([
    prisma.node.findMany({ where: { mapId: map.id } }),
    prisma.dependency.findMany({ where: { mapId: map.id } }),
    prisma.contextItem.findMany({ where: { mapId: map.id }, orderBy: { createdAt: 'asc' } }),
    prisma.agentQuestion.findMany({ where: { mapId: map.id, ...ANSWERABLE_QUESTION }, orderBy: { createdAt: 'asc' } }),
    prisma.agentRun.findMany({ where: { mapId: map.id }, orderBy: { createdAt: 'desc' }, take: 20 }),
    prisma.consultation.findMany({
      where: { mapId: map.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: {
        id: true,
        records: {
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: { id: true, kind: true, content: true, sourceMessageId: true },
        },
      },
    }),
    notes.list(map.id),
  ]);
  const dependsOn = groupBy(dependencies, (d) => d.nodeId);
  const context = groupBy(contextItems, (c) => c.nodeId);
  return {
    ...pick(map, 'id', 'title', 'problem', 'goal', 'language', 'status'),
    constraints: strings(map.constraints),
    nodes: treeOrder(nodes).map(({ node }) => ({
      ...pick(node, 'id', 'parentId', 'position', 'question', 'goal', 'status', 'statusReason'),
      ...pick(node, 'intent', 'conclusion', 'conclusionKind', 'staleReason', 'staleSourceQuestion'),
      ...pick(node, 'divergentRole', 'divergentLevel', 'completionScore'),
      constraints: strings(node.constraints),
      dependsOn: (dependsOn.get(node.id) ?? []).map((d) => d.dependsOnId),
      contextItems: (context.get(node.id) ?? []).map((c) => pick(c, 'id', 'title', 'content')),
    })),
    pendingQuestions: questions.map(summarizeQuestion),
    runs: runs.map(summarizeRun),
    consultations,
    notes: await Promise.all(
      noteFiles.map(async (file) => ({ path: file.path, content: await notes.read(map.id, file.path) })),
    ),
  };
}
