import { DIVERGENT_LIMITS, type SubQuestionProposal } from '@thinkingmap/agent-core';
import { AgentGraph, type AgentRun, ConclusionKind, DecompositionStrategy, NodeIntent } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import { mapIdOfNode } from '../commands/mutate-map.ts';
import type { AutoStart } from './auto-start.ts';
import { createRun } from './create-run.ts';
import type { RunEngine } from './run-engine.ts';

/*
 * Starting a run of each agent: every start is a command (checked, one transaction, sequenced events); the drive
 * itself runs in the background and reports through events.
 */

const processNodeInput = z.object({
  nodeId: id,
  intent: z.enum(NodeIntent).nullish(),
  strategy: z.enum(DecompositionStrategy).nullish(),
  conclusionKind: z.enum(ConclusionKind).nullish(),
});

const startDivergentInput = z.object({
  nodeId: id,
  maxLevels: z.number().int().min(1).max(DIVERGENT_LIMITS.maxLevels).nullish(),
  maxParallel: z.number().int().min(1).max(DIVERGENT_LIMITS.maxParallel).nullish(),
  threshold: z.number().min(0).max(1).nullish(),
  reviewEachLevel: z.boolean().nullish(),
});

const startCriticInput = z.object({ mapId: id, nodeId: id.nullish() });

/**
 * Starts problem understanding on a map: the agent restates it and asks the person to confirm. `consultationId`
 * names the consultation that created the map (it goes on once the person confirms).
 */
export async function understandProblem(
  engine: RunEngine,
  ctx: CommandContext,
  mapId: string,
  consultationId?: string,
): Promise<AgentRun> {
  const map = await ctx.db.read.map.findUniqueOrThrow({ where: { id: mapId } });
  // Everything the person wrote goes to the agent: it restates their title, goal and constraints too.
  const input = {
    mapId,
    problem: map.problem || map.title,
    title: map.title,
    goal: map.goal,
    constraints: Array.isArray(map.constraints) ? map.constraints.map(String) : [],
    language: map.language,
  };
  const { run } = await createRun(engine, ctx, mapId, AgentGraph.UNDERSTAND_PROBLEM, null, input, { consultationId });
  void engine.start(run, input);
  return run;
}

/**
 * A consultation's planner proposes sub-questions for a node: a decomposition run that takes the proposal as
 * its first one and goes to the same review as any decomposition (the person approves, edits or rejects —
 * a rejection asks the decomposition agent for another); no node exists before the person approves.
 */
export async function proposeSubQuestions(
  engine: RunEngine,
  ctx: CommandContext,
  raw: { nodeId: string; proposal: SubQuestionProposal; consultationId: string },
): Promise<AgentRun> {
  const nodeId = parseInput(z.object({ nodeId: id }), { nodeId: raw.nodeId }).nodeId;
  const mapId = await mapIdOfNode(ctx, nodeId);
  const input = {
    nodeId,
    intentOverride: NodeIntent.DECOMPOSE,
    strategyOverride: null,
    conclusionKind: null,
    proposalOverride: raw.proposal,
  };
  const { run } = await createRun(engine, ctx, mapId, AgentGraph.PROCESS_NODE, nodeId, input, {
    consultationId: raw.consultationId,
  });
  if (run.status === 'RUNNING') void engine.start(run, input);
  return run;
}

/**
 * Starts processing a node; the person may override the intent, strategy and conclusion kind. On a node
 * whose dependencies are open the run is accepted as WAITING_FOR_DEPENDENCIES and starts by itself when the
 * last one concludes. `auto` says why a run starts by itself (recorded as a decision of the run).
 */
export async function processNode(
  engine: RunEngine,
  ctx: CommandContext,
  raw: unknown,
  auto?: AutoStart,
): Promise<AgentRun> {
  const parsed = parseInput(processNodeInput, raw);
  const mapId = await mapIdOfNode(ctx, parsed.nodeId);
  const input = {
    nodeId: parsed.nodeId,
    intentOverride: parsed.intent ?? null,
    strategyOverride: parsed.strategy ?? null,
    conclusionKind: parsed.conclusionKind ?? null,
  };
  const { run, onMap } = await createRun(engine, ctx, mapId, AgentGraph.PROCESS_NODE, parsed.nodeId, input, { auto });
  if (run.status === 'RUNNING') void engine.start(run, input, onMap);
  return run;
}

/**
 * Starts a divergent session on a node: summary, up to `maxParallel` parallel tasks per level, converge,
 * score, until `threshold` or `maxLevels`, then the final output. The run's id is the session's id.
 */
export async function startDivergent(
  engine: RunEngine,
  ctx: CommandContext,
  raw: unknown,
  auto?: AutoStart,
): Promise<AgentRun> {
  const parsed = parseInput(startDivergentInput, raw);
  const mapId = await mapIdOfNode(ctx, parsed.nodeId);
  const input = {
    nodeId: parsed.nodeId,
    maxLevels: parsed.maxLevels ?? DIVERGENT_LIMITS.maxLevels,
    maxParallel: parsed.maxParallel ?? DIVERGENT_LIMITS.maxParallel,
    threshold: parsed.threshold ?? DIVERGENT_LIMITS.threshold,
    reviewEachLevel: parsed.reviewEachLevel ?? false,
  };
  const { run } = await createRun(engine, ctx, mapId, AgentGraph.DIVERGENT, parsed.nodeId, input, { auto });
  void engine.start(run, input);
  return run;
}

/**
 * Starts a critic review of a map, or of the subtree under `nodeId`: it posts what it finds as suggestions
 * (see `criticSuggestions`) and changes nothing itself. The run belongs to the map, so it never holds a node.
 */
export async function startCritic(engine: RunEngine, ctx: CommandContext, raw: unknown): Promise<AgentRun> {
  const parsed = parseInput(startCriticInput, raw);
  const map = await ctx.db.read.map.findUnique({ where: { id: parsed.mapId }, select: { id: true } });
  if (!map) throw new NotFoundError('Map', parsed.mapId);
  if (parsed.nodeId) {
    const node = await ctx.db.read.node.findUnique({ where: { id: parsed.nodeId }, select: { mapId: true } });
    if (node?.mapId !== parsed.mapId) throw new NotFoundError('Node', parsed.nodeId);
  }
  const input = { mapId: parsed.mapId, scopeNodeId: parsed.nodeId ?? null };
  const { run } = await createRun(engine, ctx, parsed.mapId, AgentGraph.CRITIC, null, input);
  void engine.start(run, input);
  return run;
}
