import { randomBytes } from 'node:crypto';
import { ID_PATTERN } from './input.ts';

let counter = 0;

/**
 * A new row id of the shape Prisma's `cuid()` gives ({@link ID_PATTERN}: `c`, the time, a counter, randomness; 25
 * characters), for rows written in multi-row statements whose ids must be known before they are written (a batch
 * of nodes refers to its own parents).
 */
export function newId(): string {
  counter = (counter + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(8, '0').slice(-8);
  const random = [...randomBytes(12)].map((byte) => (byte % 36).toString(36)).join('');
  return `c${time}${counter.toString(36).padStart(4, '0')}${random}`;
}
