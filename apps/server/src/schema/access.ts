import { ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { ID_PATTERN } from '../commands/input.ts';
import type { GraphQLContext } from './context.ts';

/** Checks an id's shape: a malformed id is a ValidationError, not a NotFound. */
export function parseId(field: string, value: string | number): string {
  const id = String(value);
  if (!ID_PATTERN.test(id)) throw new ValidationError(field, 'is not a valid id');
  return id;
}

/** Throws unless the map exists and belongs to the viewer. */
export async function assertMapAccess(ctx: GraphQLContext, mapId: string, field = 'mapId'): Promise<void> {
  const id = parseId(field, mapId);
  const map = await ctx.db.mapVersion(id);
  if (!map) throw new NotFoundError('Map', id);
  if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', id);
}

/** Checks that a loaded row's map belongs to the viewer. */
export async function assertRowAccess<T extends { mapId: string }>(
  ctx: GraphQLContext,
  row: T | null,
  entity: string,
  id: string,
): Promise<T> {
  if (!row) throw new NotFoundError(entity, id);
  const map = await ctx.db.mapVersion(row.mapId);
  if (!map) throw new NotFoundError(entity, id);
  if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError(entity, id);
  return row;
}
