import { randomBytes } from 'node:crypto';

/** A cuid-shaped id ('c' + 24 lowercase alphanumerics), as the API validates ids. */
export function createId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let out = 'c';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}
