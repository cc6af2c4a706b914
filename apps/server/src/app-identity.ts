import { GraphQLError } from 'graphql';
import { TOKEN_ENDED } from './auth/revocable-subscriptions.ts';
import type { TokenResolver } from './auth/tokens.ts';
import { accessNow, createBearerParser, type IdentityOptions, resolveAccess } from './auth/viewer.ts';
import { DomainError } from './commands/domain-errors.ts';
import type { RequestIdentity } from './http/request-identity.ts';

/**
 * The {@link RequestIdentity} of bearer tokens: a token in the token cache is answered without waiting (the last
 * Authorization value is compared, not parsed again), any other through {@link resolveAccess}.
 */
export function createRequestIdentity(
  identity: IdentityOptions & { tokens: Pick<TokenResolver, 'peek'> },
): RequestIdentity {
  const bearer = createBearerParser();
  return {
    access: (authorization) => {
      const token = bearer(authorization);
      return accessNow(token, identity) ?? resolveAccess(token, identity);
    },
    refusal: (error) => {
      if (!(error instanceof DomainError)) return null;
      const status = error.code === 'UNAUTHENTICATED' ? 401 : 403;
      return new GraphQLError(error.message, { extensions: { code: error.code, http: { status } } });
    },
    ended: (access) =>
      access.expiresAt && access.expiresAt <= new Date()
        ? new GraphQLError(TOKEN_ENDED.EXPIRED, { extensions: { code: 'UNAUTHENTICATED', reason: 'EXPIRED' } })
        : null,
  };
}
