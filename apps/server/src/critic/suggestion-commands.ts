import {
  AgentError,
  CriticCommand,
  type CriticScope,
  type DismissedFinding,
  type SuggestedChange,
  SuggestedChangeSchema,
  type SuggestionInput,
} from '@thinkingmap/agent-core';
import { type AgentReads, type CriticSuggestion, StaleReason, type Tx } from '@thinkingmap/db';
import { subtreeIds, treeOrder } from '@thinkingmap/map-graph';
import { z } from 'zod';
import type { CarriedWork, CommandContext, WorkCarrier } from '../commands/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import { type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { toSuggestionSnapshot } from '../commands/suggestion-snapshot.ts';
import { addDependency } from '../maps/dependency-commands.ts';
import { createNode, loadNodeInMap, updateNode } from '../maps/node-commands.ts';
import { toMapRecord, toNodeRecord } from '../maps/records.ts';
import { markStale } from '../maps/stale-conclusions.ts';

/** Each concerned node's version when the critic read it (the `nodeVersions` JSON column). */
const NODE_VERSIONS = z.record(z.string(), z.number().int());
/** The ids of the nodes a suggestion concerns (the `nodeIds` JSON column). */
const NODE_IDS = z.array(z.string());
/** The most dismissed suggestions a review is told about: the newest. */
const DISMISSALS_READ = 50;

/** The map's dismissed suggestions as the critic reads them, newest first; a row that does not parse is left out. */
async function readDismissed(reads: AgentReads, mapId: string): Promise<DismissedFinding[]> {
  const rows = await reads.dismissedSuggestions(mapId, DISMISSALS_READ);
  return rows.flatMap((row) => {
    const nodeIds = NODE_IDS.safeParse(row.nodeIds);
    const nodeVersions = NODE_VERSIONS.safeParse(row.nodeVersions);
    const change = SuggestedChangeSchema.safeParse(row.change);
    if (!nodeIds.success || !nodeVersions.success || !change.success) return [];
    const finding = { kind: row.kind, explanation: row.explanation };
    return [{ ...finding, nodeIds: nodeIds.data, nodeVersions: nodeVersions.data, change: change.data }];
  });
}

/**
 * Reads the map and the subtree under `nodeId` (the whole tree when null) in tree order, with versions, and the
 * suggestions the person dismissed on the map.
 */
export async function readCriticScope(reads: AgentReads, mapId: string, nodeId: string | null): Promise<CriticScope> {
  const map = await reads.map(mapId);
  if (!map) throw new AgentError('NODE_NOT_FOUND', `map ${mapId} not found`);
  const all = await reads.nodesOf(mapId);
  if (nodeId && !all.some((n) => n.id === nodeId)) throw new AgentError('NODE_NOT_FOUND', `node ${nodeId} not found`);
  const inScope = new Set(nodeId ? subtreeIds(all, nodeId) : all.map((n) => n.id));
  const nodes = treeOrder(all)
    .map((placed) => placed.node)
    .filter((n) => inScope.has(n.id))
    .map((n) => ({ ...toNodeRecord(n), version: n.version }));
  const edges = await reads.dependencyEdgesOf(mapId);
  const dependencies = edges.filter((d) => inScope.has(d.nodeId) && inScope.has(d.dependsOnId));
  return { map: toMapRecord(map), rootId: nodeId, nodes, dependencies, dismissed: await readDismissed(reads, mapId) };
}

/** Stores a critic run's suggestions in one change on its map (`SuggestionPosted` each); returns their ids. */
export async function postSuggestions(
  ctx: CommandContext,
  mapId: string,
  runId: string,
  suggestions: readonly SuggestionInput[],
): Promise<string[]> {
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const ids: string[] = [];
    for (const s of suggestions) {
      const data = {
        kind: s.kind,
        nodeIds: s.nodeIds,
        nodeVersions: s.nodeVersions,
        explanation: s.explanation,
        change: s.change,
      };
      const row = await tx.criticSuggestion.upsert({
        where: { runId_key: { runId, key: s.key } },
        create: { mapId, runId, key: s.key, ...data },
        update: {},
      });
      emit({ type: 'SuggestionPosted', payload: { suggestion: toSuggestionSnapshot(row) } });
      ids.push(row.id);
    }
    return ids;
  });
}

const suggestionInput = z.object({ suggestionId: id });

async function findSuggestion(ctx: CommandContext, raw: unknown): Promise<CriticSuggestion> {
  const { suggestionId } = parseInput(suggestionInput, raw);
  const found = await ctx.db.read.criticSuggestion.findUnique({ where: { id: suggestionId } });
  if (!found) throw new NotFoundError('CriticSuggestion', suggestionId);
  return found;
}

/** Moves an open suggestion to `status` and tells subscribers; refused when the person already decided. */
async function resolve(tx: Tx, emit: Emit, id: string, status: 'ACCEPTED' | 'DISMISSED'): Promise<void> {
  const moved = await tx.criticSuggestion.updateMany({
    where: { id, status: 'OPEN' },
    data: { status, resolvedAt: new Date() },
  });
  if (moved.count === 0) {
    const current = await tx.criticSuggestion.findUniqueOrThrow({ where: { id }, select: { status: true } });
    throw new ConflictError(`this suggestion was already ${current.status.toLowerCase()}`);
  }
  const row = await tx.criticSuggestion.findUniqueOrThrow({ where: { id } });
  emit({ type: 'SuggestionResolved', payload: { suggestion: toSuggestionSnapshot(row) } });
}

/**
 * Work done first in the transaction of the command that applies a suggestion: refuses (ConflictError) when a
 * node it concerns was changed or deleted since the critic read it, or when it is no longer open; otherwise
 * marks it ACCEPTED, so the change and the acceptance commit together or not at all.
 */
function claimFor(suggestion: CriticSuggestion): WorkCarrier {
  const versions = NODE_VERSIONS.parse(suggestion.nodeVersions ?? {});
  const claim: CarriedWork = async (tx, emit) => {
    for (const [nodeId, version] of Object.entries(versions)) {
      const node = await tx.node.findUnique({ where: { id: nodeId }, select: { version: true, question: true } });
      if (!node) throw new ConflictError('a question this suggestion concerns was deleted since the review');
      if (node.version !== version)
        throw new ConflictError(`the question "${node.question}" changed since the review; ask for a new review`);
    }
    await resolve(tx, emit, suggestion.id, 'ACCEPTED');
  };
  let pending: CarriedWork[] = [claim];
  return {
    mapId: suggestion.mapId,
    take: async () => {
      const work = pending;
      pending = [];
      return work;
    },
    putBack: (work) => {
      pending = [...work, ...pending];
    },
  };
}

/** Marks a concluded node's conclusion out of date (the person accepted a critic's suggestion to redo it). */
async function flagForRedo(ctx: CommandContext, nodeId: string): Promise<void> {
  const mapId = await mapIdOfNode(ctx, nodeId);
  await mutateMap(ctx, mapId, async (tx, emit) => {
    const node = await loadNodeInMap(tx, nodeId, mapId);
    if (node.conclusion === null) throw new ValidationError('suggestionId', 'the question has no conclusion to redo');
    const source = { id: node.id, question: node.question };
    await markStale(tx, emit, [{ nodeId, reason: StaleReason.FLAGGED_BY_REVIEW, source }]);
  });
}

/** Applies a suggested change through the command it names (the claim rides in the command's transaction). */
async function apply(ctx: CommandContext, mapId: string, change: SuggestedChange, versions: Record<string, number>) {
  switch (change.command) {
    case CriticCommand.ADD_SUB_QUESTION:
      return createNode(ctx, { mapId, parentId: change.parentId, question: change.question, goal: change.goal });
    case CriticCommand.EDIT_QUESTION:
      return updateNode(ctx, {
        id: change.nodeId,
        expectedVersion: versions[change.nodeId],
        question: change.question,
        ...(change.goal ? { goal: change.goal } : {}),
      });
    case CriticCommand.REDO_CONCLUSION:
      return flagForRedo(ctx, change.nodeId);
    case CriticCommand.ADD_DEPENDENCY:
      return addDependency(ctx, { nodeId: change.nodeId, dependsOnId: change.dependsOnId });
  }
}

/**
 * Accepts a suggestion: its change is made through the normal command (so it is in the map's history and can
 * be undone) in one transaction with the acceptance. Refused with ConflictError when a node it concerns changed
 * meanwhile or it was already accepted or dismissed; a change its command refuses (ValidationError, CycleError)
 * leaves the suggestion open.
 */
export async function acceptSuggestion(ctx: CommandContext, raw: unknown): Promise<CriticSuggestion> {
  const suggestion = await findSuggestion(ctx, raw);
  const change = SuggestedChangeSchema.parse(suggestion.change);
  const versions = NODE_VERSIONS.parse(suggestion.nodeVersions ?? {});
  await apply({ ...ctx, carry: claimFor(suggestion) }, suggestion.mapId, change, versions);
  return ctx.db.read.criticSuggestion.findUniqueOrThrow({ where: { id: suggestion.id } });
}

/** Dismisses an open suggestion; the map does not change. */
export async function dismissSuggestion(ctx: CommandContext, raw: unknown): Promise<CriticSuggestion> {
  const suggestion = await findSuggestion(ctx, raw);
  return mutateMap(ctx, suggestion.mapId, async (tx, emit) => {
    await resolve(tx, emit, suggestion.id, 'DISMISSED');
    return tx.criticSuggestion.findUniqueOrThrow({ where: { id: suggestion.id } });
  });
}
