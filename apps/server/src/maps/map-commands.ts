import { detectLanguage } from '@thinkingmap/agent-core';
import { MapMode, type Map as MapRow, MapStatus } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ValidationError, VersionConflictError } from '../commands/domain-errors.ts';
import { toMapSnapshot } from '../commands/event-snapshots.ts';
import { constraints, id, LIMITS, language, optionalText, parseInput, text, version } from '../commands/input.ts';
import { assertCanChange, mutateMap } from '../commands/mutate-map.ts';

const mode = z.enum(MapMode);

export const createMapInput = z.object({
  title: text(LIMITS.title).nullish(),
  problem: optionalText(LIMITS.problem).default(''),
  goal: optionalText(LIMITS.goal).default(''),
  constraints: constraints.default([]),
  language: language.nullish(),
  mode: mode.default('STANDARD'),
});

/** A title from the first line of a problem, cut at a word boundary. */
function titleFrom(problem: string): string {
  const line = problem.split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}

/**
 * Creates a map owned by the viewer; its log starts with MapCreated (seq 1). The language is detected from
 * the text unless given.
 */
export async function createMap(ctx: CommandContext, raw: unknown): Promise<MapRow> {
  assertCanChange(ctx, 'Map', 'new');
  const input = parseInput(createMapInput, raw);
  const title = input.title ?? titleFrom(input.problem);
  if (!title) throw new ValidationError('title', 'give a title or a problem');
  const data = {
    ownerId: ctx.viewer.id,
    title,
    problem: input.problem,
    goal: input.goal,
    constraints: input.constraints,
    language: input.language ?? detectLanguage([input.title, input.problem].filter(Boolean).join('\n')),
    mode: input.mode,
  };
  return mutateMap(ctx, { create: (tx) => tx.map.create({ data }) }, async (_tx, emit, map) => {
    emit({ type: 'MapCreated', payload: { map: toMapSnapshot(map) } });
    return map;
  });
}

export const updateMapInput = z.object({
  id,
  expectedVersion: version.nullish(),
  title: text(LIMITS.title).nullish(),
  problem: optionalText(LIMITS.problem).nullish(),
  goal: optionalText(LIMITS.goal).nullish(),
  constraints: constraints.nullish(),
  language: language.nullish(),
  mode: mode.nullish(),
  status: z.enum(MapStatus).nullish(),
  autoRun: z.boolean().nullish(),
  tokenBudget: z.number().int().min(1).max(1_000_000_000).nullish(),
});

/** Changes a map's fields; with `expectedVersion`, a stale edit is refused with the current version. */
export async function updateMap(ctx: CommandContext, raw: unknown): Promise<MapRow> {
  const { id: mapId, expectedVersion, ...patch } = parseInput(updateMapInput, raw);
  return mutateMap(ctx, mapId, async (tx, emit, map) => {
    if (expectedVersion != null && expectedVersion !== map.version) {
      throw new VersionConflictError('Map', map.id, map.version, expectedVersion);
    }
    // Absent fields stay as they are; null clears only the token budget (no other field may be null).
    const data = Object.fromEntries(
      Object.entries(patch).filter(([field, value]) => value != null || (field === 'tokenBudget' && value === null)),
    );
    const fields = Object.keys(data);
    if (fields.length === 0) return map;
    const updated = await tx.map.update({ where: { id: mapId }, data: { ...data, version: { increment: 1 } } });
    emit({ type: 'MapUpdated', payload: { map: toMapSnapshot(updated), fields } });
    return updated;
  });
}

/**
 * Deletes a map and everything in it, under its row lock like every command: MapDeleted is its last event
 * (the log keeps it), then subscribers' streams end.
 */
export async function deleteMap(ctx: CommandContext, raw: unknown): Promise<{ id: string }> {
  const { id: mapId } = parseInput(z.object({ id }), raw);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    emit({ type: 'MapDeleted', payload: { mapId } });
    // Checkpoints are a run's private state, not rows of the map: the runs' go with it.
    const threads = (await tx.agentRun.findMany({ where: { mapId }, select: { threadId: true } })).map(
      (r) => r.threadId,
    );
    await tx.checkpointWrite.deleteMany({ where: { threadId: { in: threads } } });
    await tx.checkpoint.deleteMany({ where: { threadId: { in: threads } } });
    await tx.map.delete({ where: { id: mapId } });
    return { id: mapId };
  });
}
