import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { applyState } from './apply-state.ts';
import type { HistoryEvent } from './history-events.ts';
import { readHistoryEvents } from './history-events.ts';
import { buildChanges, type MapChange, stateAt } from './map-changes.ts';
import type { Entity } from './map-state.ts';
import { nextUndo, personStacks, revertPlan } from './revert-plan.ts';
import { revertedBy, runEdits } from './reverted-by.ts';
import { takeBackSuggestionDecisions } from './suggestion-decisions.ts';
import { UndoRefusedError } from './undo-refused-error.ts';

/** What a compensating command returns: the change it wrote (null when there was nothing to change). */
export interface CompensationResult {
  mapId: string;
  /** The sequence number of the change written (its first event). */
  seq: number | null;
}

type Plan = (
  changes: MapChange[],
  current: Map<string, Entity>,
  events: readonly HistoryEvent[],
) => {
  target: Map<string, Entity | null>;
  kind: 'UNDO' | 'REDO' | 'RESTORE';
  reverts: number | null;
  /** The changes taken back (their first sequence numbers): the suggestions they decided are taken back too. */
  takenBack: number[];
};

/**
 * Reads the map's history under its lock, plans the target state and writes it as one new change: compensating
 * events appended to the log, never a rewrite of it.
 */
async function compensate(ctx: CommandContext, mapId: string, plan: Plan): Promise<CompensationResult> {
  let seq: number | null = null;
  await mutateMap(ctx, mapId, async (tx, emit, map) => {
    const events = await readHistoryEvents(tx, mapId);
    const { changes, state, archives } = buildChanges(events);
    const { target, kind, reverts, takenBack } = plan(changes, state, events);
    // The change's metadata is read by mutateMap from the context.
    ctx.change = { kind, reverts };
    const before = map.lastSeq;
    let count = 0;
    await applyState(
      tx,
      (event) => {
        count += 1;
        emit(event);
      },
      mapId,
      state,
      target,
      archives,
    );
    await takeBackSuggestionDecisions(
      tx,
      (event) => {
        count += 1;
        emit(event);
      },
      events,
      new Set(takenBack),
    );
    if (count) seq = before + 1;
  });
  return { mapId, seq };
}

/** Takes back the person's last change (not yet undone) on a map. */
export async function undoLastChange(ctx: CommandContext, raw: unknown): Promise<CompensationResult> {
  const { mapId } = parseInput(z.object({ mapId: id }), raw);
  return compensate({ ...ctx }, mapId, (changes, current) => {
    const unit = nextUndo(changes);
    if (!unit)
      throw new UndoRefusedError(
        'NOTHING_TO_UNDO',
        'there is no change of yours to undo since the map was created (an undone change can be redone)',
      );
    return {
      target: revertPlan(unit, changes, current),
      kind: 'UNDO',
      reverts: unit[0].seq,
      takenBack: unit.map((c) => c.seq),
    };
  });
}

/** Takes back the person's last undo, if nothing was changed by them since. */
export async function redoLastUndo(ctx: CommandContext, raw: unknown): Promise<CompensationResult> {
  const { mapId } = parseInput(z.object({ mapId: id }), raw);
  return compensate({ ...ctx }, mapId, (changes, current) => {
    const last = personStacks(changes).redo.at(-1)?.[0];
    if (!last) throw new UndoRefusedError('NOTHING_TO_REDO', 'there is no undo to redo');
    return { target: revertPlan([last], changes, current), kind: 'REDO', reverts: last.seq, takenBack: [last.seq] };
  });
}

/**
 * Takes back everything one run created or changed, refused (naming the later change) where a later change
 * by someone else depends on it. The undo names the run's first change, so the history marks the run's changes
 * undone (see `revertedBy`).
 */
export async function undoRun(ctx: CommandContext, raw: unknown): Promise<CompensationResult> {
  const { runId } = parseInput(z.object({ runId: id }), raw);
  return takeBackRun(ctx, runId, { nothing: 'this run changed nothing on the map', whole: true });
}

/**
 * Takes back what one run created (its nodes and dependencies) and leaves what it changed on what was there:
 * a fork whose proposal the person approved replaces the original's sub-questions this way, while the node they
 * hang from keeps what the fork set on it since. Refused like `undoRun` where a later change depends on them.
 * It names no change it reverts: only part of the run's changes is taken back, so none is marked undone whole.
 */
export function undoRunCreations(ctx: CommandContext, runId: string): Promise<CompensationResult> {
  return takeBackRun(ctx, runId, {
    nothing: 'this run created nothing on the map',
    whole: false,
    // Its nodes and dependencies: what it said (its messages) stays, as the fork's own does.
    taken: (entry) => entry.action === 'CREATED' && (entry.kind === 'NODE' || entry.kind === 'DEPENDENCY'),
  });
}

async function takeBackRun(
  ctx: CommandContext,
  runId: string,
  how: { nothing: string; whole: boolean; taken?: (entry: MapChange['entries'][number]) => boolean },
): Promise<CompensationResult> {
  const run = await ctx.db.read.agentRun.findUnique({ where: { id: runId }, select: { mapId: true } });
  if (!run) throw new NotFoundError('AgentRun', runId);
  return compensate({ ...ctx }, run.mapId, (changes, current) => {
    const edits = runEdits(changes, runId, how.taken);
    if (edits.length === 0) throw new UndoRefusedError('NOTHING_TO_UNDO', how.nothing);
    // What an undo that still stands took back is not taken back again.
    const undone = revertedBy(changes);
    const mine = edits.filter((c) => !undone.has(c.seq));
    if (mine.length === 0)
      throw new UndoRefusedError('ALREADY_UNDONE', 'this run was undone already (redo that undo to bring it back)');
    return {
      target: revertPlan(mine, changes, current),
      kind: 'UNDO',
      reverts: how.whole ? mine[0]!.seq : null,
      takenBack: mine.map((c) => c.seq),
    };
  });
}

/** Restores the map as it was just after sequence number `seq`, as a new change. */
export async function restoreMap(ctx: CommandContext, raw: unknown): Promise<CompensationResult> {
  const { mapId, seq } = parseInput(z.object({ mapId: id, seq: z.number().int().min(1) }), raw);
  return compensate({ ...ctx }, mapId, (changes, current, events) => {
    const last = changes.at(-1)?.lastSeq ?? 0;
    if (seq > last) throw new ValidationError('seq', `the map's history ends at ${last}`);
    return {
      target: restoreTarget(changes, current, stateAt(events, seq)),
      kind: 'RESTORE',
      reverts: null,
      takenBack: changes.filter((c) => c.seq > seq).map((c) => c.seq),
    };
  });
}

/**
 * Every entity the map has had, as it was at the moment restored (`then`; null: absent then). The map itself is
 * never absent: its fields go back.
 */
function restoreTarget(changes: MapChange[], current: Map<string, Entity>, then: Map<string, Entity>) {
  const keys = new Set([...current.keys(), ...then.keys(), ...changes.flatMap((c) => c.entries.map((e) => e.key))]);
  const target = new Map<string, Entity | null>();
  for (const key of keys) {
    const was = then.get(key) ?? null;
    if (was || !key.startsWith('MAP:')) target.set(key, was);
  }
  return target;
}
