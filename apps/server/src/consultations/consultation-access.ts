import { ForbiddenError, NotFoundError } from '../commands/domain-errors.ts';

/**
 * Checks that a loaded consultation is the viewer's. Its `ownerId` is its map's owner (a map never changes
 * owner), and says whose it is before it has a map.
 */
export function assertConsultationAccess<T extends { ownerId: string }>(
  ctx: { viewer: { id: string } },
  row: T | null,
  id: string,
): T {
  if (!row) throw new NotFoundError('Consultation', id);
  if (row.ownerId !== ctx.viewer.id) throw new ForbiddenError('Consultation', id);
  return row;
}
