import { type ApiToken, type Database, TokenScope } from '@thinkingmap/db';
import { z } from 'zod';
import { type Access, canWrite, READ_ONLY_MESSAGE } from '../commands/access.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { id, optionalText, parseInput } from '../commands/input.ts';
import type { TokenRevocations } from './token-revocations.ts';
import { issueToken } from './tokens.ts';

/** What the token commands need. */
export interface TokenCommandContext {
  db: Database;
  access: Access;
  revocations: TokenRevocations;
}

const createTokenInput = z.object({
  label: optionalText(100).default(''),
  scope: z.enum(TokenScope).default(TokenScope.FULL),
  expiresAt: z.date().nullish(),
});

/** Refuses writes of a read-only token (the schema refuses them first; this keeps the command safe by itself). */
function assertCanWrite(access: Access): void {
  if (!canWrite(access)) throw new ForbiddenError('ApiToken', access.tokenId ?? '', READ_ONLY_MESSAGE);
}

/** Issues a token for the viewer. The token is returned only here; the database keeps its hash. */
export async function createApiToken(
  ctx: TokenCommandContext,
  raw: unknown,
  now = new Date(),
): Promise<{ token: string; apiToken: ApiToken }> {
  assertCanWrite(ctx.access);
  const input = parseInput(createTokenInput, raw);
  if (input.expiresAt && input.expiresAt <= now) throw new ValidationError('expiresAt', 'must be in the future');
  const { token, row } = await issueToken(ctx.db, ctx.access.viewer.id, input);
  return { token, apiToken: row };
}

/** The viewer's tokens, newest first (revoked and expired ones included, marked as such). */
export function listApiTokens(ctx: Pick<TokenCommandContext, 'db' | 'access'>): Promise<ApiToken[]> {
  return ctx.db.read.apiToken.findMany({ where: { userId: ctx.access.viewer.id }, orderBy: { createdAt: 'desc' } });
}

/**
 * Revokes one of the viewer's tokens: it is refused from now on, on every instance, and its open subscriptions
 * and WebSockets are closed. Revoking a revoked token changes nothing.
 */
export async function revokeApiToken(ctx: TokenCommandContext, raw: unknown): Promise<ApiToken> {
  assertCanWrite(ctx.access);
  const tokenId = parseInput(z.object({ id }), { id: raw }).id;
  const row = await ctx.db.read.apiToken.findUnique({ where: { id: tokenId } });
  if (!row) throw new NotFoundError('ApiToken', tokenId);
  if (row.userId !== ctx.access.viewer.id) throw new ForbiddenError('ApiToken', tokenId);
  if (row.revokedAt) return row;
  const revoked = await ctx.db.write((tx) =>
    tx.apiToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } }),
  );
  ctx.revocations.announce(tokenId);
  return revoked;
}
