import type { User } from '@thinkingmap/db';
import { UnauthenticatedError } from '../errors/domain-errors.ts';

/** How the server decides who a request acts as. */
export interface IdentityOptions {
  resolveToken(token: string): Promise<User | null>;
  /** The embedded default's user, used when a request carries no token; null when tokens are required. */
  localUser: User | null;
}

/** Reads a bearer token from an Authorization header value (`Bearer xyz`) or a bare token. */
export function parseBearer(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const match = /^Bearer\s+(.+)$/i.exec(value.trim());
  return ((match ? match[1] : value) ?? '').trim() || null;
}

/**
 * Resolves the viewer: a valid token wins; an invalid token is refused (never silently downgraded to the
 * local user); no token means the local user in the embedded default, and is refused otherwise.
 */
export async function resolveViewer(token: string | null, options: IdentityOptions): Promise<User> {
  if (token) {
    const user = await options.resolveToken(token);
    if (!user) throw new UnauthenticatedError('the bearer token is not valid');
    return user;
  }
  if (options.localUser) return options.localUser;
  throw new UnauthenticatedError();
}
