import type { CommandContext } from '../commands/context.ts';

/** A map in a list. */
export interface MapListItem {
  id: string;
  title: string;
  status: string;
  language: string;
  updatedAt: string;
}

/** The viewer's maps, most recently changed first (at most `limit`). Reads only. */
export async function listViewerMaps(ctx: CommandContext, limit = 200): Promise<MapListItem[]> {
  const maps = await ctx.db.prisma.map.findMany({
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
