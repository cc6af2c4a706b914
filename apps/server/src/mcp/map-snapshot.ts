import type { AgentQuestion, AgentRun, Map as MapRow, Node } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { id, parseInput } from '../commands/input.ts';
import { ForbiddenError, NotFoundError } from '../errors/domain-errors.ts';

/** A node as MCP clients see it. */
export interface NodeSummary {
  id: string;
  parentId: string | null;
  question: string;
  goal: string;
  status: string;
  statusReason: string | null;
  intent: string | null;
  conclusion: string | null;
  conclusionKind: string | null;
  /** Ids of the nodes this one waits for. */
  dependsOn: string[];
  contextItems: { id: string; title: string; content: string }[];
}

/** A question a paused run waits on; answer it with `reply_to_agent(requestId, ...)`. */
export interface QuestionSummary {
  requestId: string;
  runId: string;
  nodeId: string | null;
  kind: string;
  question: string;
  context: unknown;
}

/** An agent run as MCP clients see it. */
export interface RunSummary {
  id: string;
  agent: string;
  nodeId: string | null;
  status: string;
  errorCode: string | null;
  error: string | null;
}

/** A whole map: what `get_map` returns as JSON and what its Markdown resource renders. */
export interface MapSnapshot {
  id: string;
  title: string;
  problem: string;
  goal: string;
  constraints: string[];
  language: string;
  status: string;
  /** Nodes in tree order (parents before children, siblings by position). */
  nodes: NodeSummary[];
  pendingQuestions: QuestionSummary[];
  /** The newest 20 runs, newest first. */
  runs: RunSummary[];
}

export const summarizeRun = (run: AgentRun): RunSummary => ({
  id: run.id,
  agent: run.agent,
  nodeId: run.nodeId,
  status: run.status,
  errorCode: run.errorCode,
  error: run.error,
});

export const summarizeQuestion = (q: AgentQuestion): QuestionSummary => ({
  requestId: q.id,
  runId: q.runId,
  nodeId: q.nodeId,
  kind: q.kind,
  question: q.question,
  context: q.context,
});

/** Orders nodes depth-first: each parent, then its children by position. */
function treeOrder<T extends Pick<Node, 'id' | 'parentId' | 'position'>>(nodes: T[]): T[] {
  const byParent = new Map<string | null, T[]>();
  for (const node of nodes) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node]);
  const ordered: T[] = [];
  const visit = (parentId: string | null) => {
    for (const child of (byParent.get(parentId) ?? []).sort((a, b) => a.position - b.position)) {
      ordered.push(child);
      visit(child.id);
    }
  };
  visit(null);
  return ordered;
}

/** Loads a map the viewer owns: NotFound for an unknown id, Forbidden for someone else's map. */
export async function loadViewerMap(ctx: CommandContext, mapId: unknown): Promise<MapRow> {
  const parsed = parseInput(z.object({ mapId: id }), { mapId }).mapId;
  const map = await ctx.db.prisma.map.findUnique({ where: { id: parsed } });
  if (!map) throw new NotFoundError('Map', parsed);
  if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', parsed);
  return map;
}

/** Reads a map with its nodes, dependencies, context, pending questions and recent runs (reads only). */
export async function loadMapSnapshot(ctx: CommandContext, mapId: unknown): Promise<MapSnapshot> {
  const map = await loadViewerMap(ctx, mapId);
  const prisma = ctx.db.prisma;
  const [nodes, dependencies, contextItems, questions, runs] = await Promise.all([
    prisma.node.findMany({ where: { mapId: map.id } }),
    prisma.dependency.findMany({ where: { mapId: map.id } }),
    prisma.contextItem.findMany({ where: { mapId: map.id }, orderBy: { createdAt: 'asc' } }),
    prisma.agentQuestion.findMany({ where: { mapId: map.id, status: 'PENDING' }, orderBy: { createdAt: 'asc' } }),
    prisma.agentRun.findMany({ where: { mapId: map.id }, orderBy: { createdAt: 'desc' }, take: 20 }),
  ]);
  return {
    id: map.id,
    title: map.title,
    problem: map.problem,
    goal: map.goal,
    constraints: (map.constraints as string[] | null) ?? [],
    language: map.language,
    status: map.status,
    nodes: treeOrder(nodes).map((node) => ({
      id: node.id,
      parentId: node.parentId,
      question: node.question,
      goal: node.goal,
      status: node.status,
      statusReason: node.statusReason,
      intent: node.intent,
      conclusion: node.conclusion,
      conclusionKind: node.conclusionKind,
      dependsOn: dependencies.filter((d) => d.nodeId === node.id).map((d) => d.dependsOnId),
      contextItems: contextItems
        .filter((c) => c.nodeId === node.id)
        .map((c) => ({ id: c.id, title: c.title, content: c.content })),
    })),
    pendingQuestions: questions.map(summarizeQuestion),
    runs: runs.map(summarizeRun),
  };
}
