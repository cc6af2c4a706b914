import type { User } from '@thinkingmap/db';
import { type Access, localAccess } from '../commands/access.ts';
import { UnauthenticatedError } from '../commands/domain-errors.ts';
import type { TokenResolver } from './tokens.ts';

/** How the server decides who a request acts as. */
export interface IdentityOptions {
  tokens: Pick<TokenResolver, 'resolve'>;
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
 * {@link parseBearer} keeping its last answer: a client sends the same Authorization header with every request, and
 * comparing it with the last one costs less than parsing it again (a map read served from stored bytes takes a few
 * microseconds in all).
 */
export function createBearerParser(): (value: unknown) => string | null {
  let last: unknown;
  let token: string | null = null;
  return (value) => {
    if (value !== last) {
      token = parseBearer(value);
      last = value;
    }
    return token;
  };
}

/**
 * Resolves who acts and with what scope: a valid token wins; an invalid, expired or revoked token is refused
 * (never silently downgraded to the local user); no token means the local user in the embedded default, and
 * is refused otherwise.
 */
export async function resolveAccess(token: string | null, options: IdentityOptions): Promise<Access> {
  if (token) {
    const access = await options.tokens.resolve(token);
    if (!access) throw new UnauthenticatedError('the bearer token is not valid (unknown, expired or revoked)');
    return access;
  }
  if (options.localUser) return localAccess(options.localUser);
  throw new UnauthenticatedError();
}

/**
 * What {@link resolveAccess} answers, when it is known without waiting: a token's access from the token cache, or
 * the local user where a request without token acts as them. Undefined when only the database can tell, and for a
 * refused token: {@link resolveAccess} answers those (and refuses the refused).
 */
export function accessNow(
  token: string | null,
  options: Pick<IdentityOptions, 'localUser'> & { tokens: Pick<TokenResolver, 'peek'> },
): Access | undefined {
  if (token) return options.tokens.peek(token) ?? undefined;
  return options.localUser ? localAccess(options.localUser) : undefined;
}
