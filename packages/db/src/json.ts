import type { Prisma } from '../generated/sqlite/client.ts';

/** Whether a value read from a JSON column or a JSON payload is an object whose fields can be read. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * A value for a JSON column, as Prisma's client takes it: an object or array (what agents and the API write there),
 * a string, a number or a boolean. Anything else has no JSON form and is refused.
 */
export function jsonColumn(value: unknown): Prisma.InputJsonValue {
  if (typeof value === 'object' && value !== null) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new TypeError(`a JSON column cannot hold ${String(value)}`);
}
