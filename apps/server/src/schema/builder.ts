import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { Db } from '@thinkingmap/db';
import type PrismaTypes from '@thinkingmap/db/pothos-types';
import { getDatamodel } from '@thinkingmap/db/pothos-types';
import { canWrite, READ_ONLY_MESSAGE } from '../commands/access.ts';
import { ForbiddenError } from '../commands/domain-errors.ts';
import type { GraphQLContext } from './context.ts';

/** The schema builder and its plugins; nothing else lives here. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  AuthScopes: { write: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // ErrorsPlugin first: it wraps the others, so the ForbiddenError scope-auth throws becomes a typed result.
  plugins: [ErrorsPlugin, ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    // plugin-prisma only reads through the client it is given; writes go through the command layer.
    client: (ctx) => ctx.db.read as unknown as Db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    // Outside production a Prisma-backed resolver that forgets to spread `...query` fails loudly (tests run with
    // it). Mutations return the row their command wrote: they are plain `t.field`s of the object's ref, so no
    // query is planned for them, and relations a client selects load through plugin-prisma's fallback loader.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  errors: { directResult: true },
  // Every mutation needs the `write` scope (the Mutation type below): a read-only token gets ForbiddenError from
  // each of them, including mutations added later, before its resolver runs.
  scopeAuth: {
    authScopes: (ctx) => ({ write: canWrite(ctx.access) }),
    unauthorizedError: (_parent, _ctx, info) => new ForbiddenError('Mutation', info.fieldName, READ_ONLY_MESSAGE),
  },
});

builder.queryType({});
builder.mutationType({ authScopes: { write: true } });
builder.subscriptionType({});
