import type { Map as MapRow } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';

/** A map in a list. */
export type MapListItem = Pick<MapRow, 'id' | 'title' | 'status' | 'language'> & { updatedAt: string };

/** The viewer's maps, most recently changed first (at most `limit`). Reads only. */
export async function listViewerMaps(ctx: CommandContext, limit = 200): Promise<MapListItem[]> {
  const maps = await ctx.db.read.map.findMany({
    where: { ownerId: ctx.viewer.id },
    orderBy: { updatedAt: 'desc' },
    take: limit,
  });
  return maps.map((m) => ({
    id: m.id,
    title: m.title,
    status: m.status,
    language: m.language,
    updatedAt: m.updatedAt.toISOString(),
  }));
}
