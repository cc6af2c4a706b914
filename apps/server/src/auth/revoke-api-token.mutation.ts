import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { ApiTokenRef } from './api-token.type.ts';
import { revokeApiToken } from './token-commands.ts';

builder.mutationField('revokeApiToken', (t) =>
  t.field({
    type: ApiTokenRef,
    description: 'Revokes one of the viewer’s tokens: refused at once on every instance, its subscriptions closed.',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeApiToken(ctx, String(args.id)),
  }),
);
