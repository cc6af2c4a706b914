import { revokeApiToken } from '../../auth/token-commands.ts';
import { builder } from '../builder.ts';
import { ApiTokenRef } from '../types/api-token.type.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';

builder.mutationField('revokeApiToken', (t) =>
  t.field({
    type: ApiTokenRef,
    description: 'Revokes one of the viewer’s tokens: refused at once on every instance, its subscriptions closed.',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeApiToken(ctx, String(args.id)),
  }),
);
