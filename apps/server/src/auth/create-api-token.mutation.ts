import { ForbiddenError, ValidationError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { TokenScopeEnum } from '../schema/enums.type.ts';
import { ApiTokenRef } from './api-token.type.ts';
import { createApiToken } from './token-commands.ts';

const CreatedApiTokenRef = builder.objectRef<Awaited<ReturnType<typeof createApiToken>>>('CreatedApiToken').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The bearer token. Shown only here: store it now.' }),
    apiToken: t.field({ type: ApiTokenRef, resolve: (created) => created.apiToken }),
  }),
});

builder.mutationField('createApiToken', (t) =>
  t.field({
    type: CreatedApiTokenRef,
    description: 'Issues a token for the viewer: FULL or READ_ONLY (queries and subscriptions), optionally expiring.',
    errors: { types: [ValidationError, ForbiddenError] },
    args: {
      label: t.arg.string({ required: false }),
      scope: t.arg({ type: TokenScopeEnum, required: false }),
      expiresAt: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: (_root, args, ctx) => createApiToken(ctx, args),
  }),
);
