import type { Map as MapRow, Tx } from '@thinkingmap/db';
import { READ_ONLY_MESSAGE } from './access.ts';
import type { CommandContext } from './context.ts';
import { ConflictError, ForbiddenError, NotFoundError } from './domain-errors.ts';
import { appendEvents, type ChangeMeta } from './event-log.ts';
import type { MapEvent, PendingEvent } from './map-event.ts';

/** Collects the events a command emits. */
export type Emit = (event: PendingEvent) => void;

/** The map a command works on: an existing one by id, or one the command creates (`createMap`). */
export type MapTarget = string | { create: (tx: Tx) => Promise<MapRow> };

/**
 * Refuses any change by a read-only caller. The GraphQL Mutation type and the MCP server refuse them before
 * anything else; this keeps every command safe by itself.
 */
export function assertCanChange(ctx: CommandContext, entity: string, id: string): void {
  if (ctx.scope === 'READ_ONLY') throw new ForbiddenError(entity, id, READ_ONLY_MESSAGE);
}

/**
 * Takes the map row's lock before anything is read, so commands on one map run one after the other and
 * every check (expected version, cycles, a second root, a busy node) sees the writes committed before it.
 * PostgreSQL runs transactions at READ COMMITTED: without the lock two racing commands would both pass
 * their checks. SQLite's writes are already queued one transaction at a time. Also taken first by the token ledger
 * (`MapTokenLedgers`, the one write to map data beside {@link mutateMap}), whose reservations and settles on a
 * map's budget must not race either.
 */
export async function lockMap(ctx: Pick<CommandContext, 'db'>, tx: Tx, mapId: string): Promise<void> {
  await ctx.db.mapLog.lock(tx, mapId);
}

/**
 * Locks and loads an existing map (the map log's `openMap` takes the lock of {@link lockMap}), or creates the
 * new one (which no other transaction can see yet).
 */
async function openMap(ctx: CommandContext, tx: Tx, target: MapTarget): Promise<MapRow> {
  if (typeof target !== 'string') {
    // A receipt is checked after the map is open; a repeated creation would already have created a map.
    if (ctx.idempotencyKey) throw new Error('a command that creates a map takes no idempotency key');
    return target.create(tx);
  }
  const map = await ctx.db.mapLog.openMap(tx, target);
  if (!map) throw new NotFoundError('Map', target);
  return map;
}

/**
 * The one way to change a map and its log: locks the map's row (or creates the map), checks that the viewer
 * owns it, runs `work` in one transaction unless its idempotency key already has a receipt, appends the
 * events it emitted with consecutive sequence numbers in the same transaction, and publishes them after
 * commit. If anything throws, nothing is written and nothing is published.
 *
 * Agents act as the map's owner. Work handed over with the command (`ctx.carry`: the claim of a critic's
 * suggestion being applied, a drive's last progress handed to its settle) is done first, in the same transaction,
 * so both commit together or not at all.
 */
export async function mutateMap<T>(
  ctx: CommandContext,
  target: MapTarget,
  work: (tx: Tx, emit: Emit, map: MapRow) => Promise<T>,
): Promise<T> {
  assertCanChange(ctx, 'Map', typeof target === 'string' ? target : 'new');
  const carried = ctx.carry && ctx.carry.mapId === target ? await ctx.carry.take() : [];
  const key = ctx.idempotencyKey;
  let outcome: { result: T; events: MapEvent[] };
  try {
    outcome = await ctx.db.write(async (tx) => {
      const map = await openMap(ctx, tx, target);
      if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', map.id);
      const pending: PendingEvent[] = [];
      const emit: Emit = (event) => pending.push(event);
      for (const carriedWork of carried) await carriedWork(tx, emit, map);
      const receipt = key ? await ctx.db.mapLog.receipt(tx, key) : null;
      const result = receipt ? (receipt.result as T) : await work(tx, emit, map);
      // A receipt stored meanwhile under the key (by a command on another map) refuses this one: it ran once already.
      if (key && !receipt && !(await ctx.db.mapLog.storeReceipt(tx, key, result)))
        throw new ConflictError(`a command with idempotency key ${key} already ran`);
      return { result, events: await appendEvents(ctx.db.mapLog, tx, map, pending, changeMeta(ctx)) };
    });
  } catch (error) {
    if (carried.length) ctx.carry?.putBack(carried);
    throw error;
  }
  const { result, events } = outcome;
  if (events.length) {
    ctx.bus.publish(events);
    ctx.onCommitted?.(events);
  }
  return result;
}

/** Who made a command's change and what kind it is, recorded on each of its events (the map's history). */
function changeMeta(ctx: CommandContext): ChangeMeta {
  return {
    actorId: ctx.viewer.id,
    runId: ctx.actor?.runId ?? null,
    step: ctx.actor?.step() ?? null,
    changeKind: ctx.change?.kind ?? 'EDIT',
    revertsSeq: ctx.change?.reverts ?? null,
  };
}

/**
 * Finds which map a node belongs to (immutable, so it can be read before the transaction). Every command checks
 * inside its transaction that its node is in the map (`loadNodeInMap`), and a node of another map is not found.
 */
export async function mapIdOfNode(ctx: CommandContext, nodeId: string): Promise<string> {
  const mapId = await ctx.db.agentReads.nodeMapId(nodeId);
  if (!mapId) throw new NotFoundError('Node', nodeId);
  return mapId;
}
