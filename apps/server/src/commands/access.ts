import { TokenScope, type User } from '@thinkingmap/db';

/**
 * Who a request acts as and what it may do: the one description of a caller that GraphQL resolvers
 * (`ctx.access`), the command layer (`CommandContext.scope`) and MCP tools (`McpContext.commands.scope`) read.
 *
 * - `scope` is `FULL` (everything the user may do) or `READ_ONLY` (queries, subscriptions, MCP tools annotated
 *   `readOnlyHint`): every mutation and every other tool answers `ForbiddenError` for it.
 * - `tokenId` is the ApiToken the request came with, null for the embedded local user without a token.
 *   Revoking that token ends the request's open subscriptions and WebSockets on every instance.
 */
export interface Access {
  viewer: User;
  tokenId: string | null;
  scope: TokenScope;
  /** When the token stops working (null: never). */
  expiresAt: Date | null;
}

/** The access of the embedded local user, who needs no token. */
export function localAccess(viewer: User): Access {
  return { viewer, tokenId: null, scope: TokenScope.FULL, expiresAt: null };
}

/** Whether this access may change anything. */
export const canWrite = (access: Pick<Access, 'scope'>): boolean => access.scope === TokenScope.FULL;

/** The message every refused write of a read-only token carries. */
export const READ_ONLY_MESSAGE = 'this token is read-only: it may read and subscribe, not change anything';
