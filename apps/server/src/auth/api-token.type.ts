import type { ApiToken } from '@thinkingmap/db';
import { builder } from '../schema/builder.ts';
import { TokenScopeEnum } from '../schema/enums.type.ts';
import { listApiTokens } from './token-commands.ts';

/** A token as its owner sees it: never the token itself (only its hash is stored). */
export const ApiTokenRef = builder.objectRef<ApiToken>('ApiToken').implement({
  description: 'A bearer token of the viewer. The token itself is shown once, by createApiToken.',
  fields: (t) => ({
    id: t.exposeID('id'),
    label: t.exposeString('label'),
    scope: t.field({ type: TokenScopeEnum, resolve: (token) => token.scope }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    active: t.boolean({
      description: 'Neither revoked nor expired.',
      resolve: (token) => !token.revokedAt && !(token.expiresAt && token.expiresAt <= new Date()),
    }),
    current: t.boolean({
      description: 'The token this request came with.',
      resolve: (token, _args, ctx) => token.id === ctx.access.tokenId,
    }),
  }),
});

builder.queryField('apiTokens', (t) =>
  t.field({
    type: [ApiTokenRef],
    description: "The viewer's tokens, newest first, revoked and expired ones included.",
    resolve: (_root, _args, ctx) => listApiTokens(ctx),
  }),
);
