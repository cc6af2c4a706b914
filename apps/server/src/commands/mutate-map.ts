import type { Map as MapRow, Tx } from '@thinkingmap/db';
import { ForbiddenError, NotFoundError } from '../errors/domain-errors.ts';
import { appendEvents } from '../events/event-log.ts';
import type { PendingEvent } from '../events/map-event.ts';
import type { CommandContext } from './context.ts';

/** Collects the events a command emits. */
export type Emit = (event: PendingEvent) => void;

/** Loads a map and checks that the viewer owns it. */
export async function loadOwnedMap(tx: Tx, viewerId: string, mapId: string): Promise<MapRow> {
  const map = await tx.map.findUnique({ where: { id: mapId } });
  if (!map) throw new NotFoundError('Map', mapId);
  if (map.ownerId !== viewerId) throw new ForbiddenError('Map', mapId);
  return map;
}

/**
 * Takes the map row's lock before anything is read, so commands on one map run one after the other and
 * every check (expected version, cycles, a second root, a busy node) sees the writes committed before it.
 * PostgreSQL runs transactions at READ COMMITTED: without the lock two racing commands would both pass
 * their checks. SQLite's writes are already queued one transaction at a time.
 */
async function lockMap(ctx: CommandContext, tx: Tx, mapId: string): Promise<void> {
  if (ctx.db.provider === 'postgresql') await tx.$queryRaw`SELECT "id" FROM "Map" WHERE "id" = ${mapId} FOR UPDATE`;
}

/**
 * The one way to change a map: checks access, runs `work` in one transaction, appends the events it
 * emitted with consecutive sequence numbers in the same transaction, and publishes them after commit.
 * If anything throws, nothing is written and nothing is published.
 */
export async function mutateMap<T>(
  ctx: CommandContext,
  mapId: string,
  work: (tx: Tx, emit: Emit, map: MapRow) => Promise<T>,
): Promise<T> {
  const { result, events } = await ctx.db.write(async (tx) => {
    await lockMap(ctx, tx, mapId);
    const map = await loadOwnedMap(tx, ctx.viewer.id, mapId);
    const key = ctx.idempotencyKey;
    if (key) {
      const receipt = await tx.commandReceipt.findUnique({ where: { key } });
      if (receipt) return { result: receipt.result as T, events: [] };
    }
    const pending: PendingEvent[] = [];
    const result = await work(tx, (event) => pending.push(event), map);
    const events = await appendEvents(tx, mapId, pending);
    if (key) await tx.commandReceipt.create({ data: { key, result: JSON.parse(JSON.stringify(result ?? null)) } });
    return { result, events };
  });
  if (events.length) {
    ctx.bus.publish(events);
    ctx.onCommitted?.(events);
  }
  return result;
}

/** Finds which map a node belongs to (immutable, so it can be read before the transaction). */
export async function mapIdOfNode(ctx: CommandContext, nodeId: string): Promise<string> {
  const node = await ctx.db.prisma.node.findUnique({ where: { id: nodeId }, select: { mapId: true } });
  if (!node) throw new NotFoundError('Node', nodeId);
  return node.mapId;
}
