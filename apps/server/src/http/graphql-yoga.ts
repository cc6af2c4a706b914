import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, maskError, type YogaServerOptions } from 'graphql-yoga';
import type { Access } from '../commands/access.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { compilesWithJit, createCompiledQueryCache } from './compiled-query-cache.ts';
import { useHiddenSchema, useNoInternalDetails } from './hide-schema.ts';
import { type PendingAnswer, useStoredAnswers } from './map-response-cache.ts';
import { armorPlugin, boundedParserCache, DEFAULT_RUN_TIME_LIMITS, useRunTimeBudget } from './query-limits.ts';
import type { RequestGuard } from './request-guard.ts';
import type { RequestIdentity } from './request-identity.ts';
import { useSseSingleConnection } from './sse-single-connection.ts';

/** What a request brings to Yoga besides the request: its access when already resolved (graphql-ws), its map-read hook. */
export interface ServerContext {
  access?: Access;
  storedAnswer?: PendingAnswer;
}

/** Options of {@link createGraphQLYoga}. */
export interface GraphQLYogaOptions {
  schema: GraphQLSchema;
  /** Who a request without a resolved access acts as. */
  identity: Pick<RequestIdentity, 'access' | 'refusal'>;
  /** The GraphQL context of a request acting with `access`. */
  contextFor(access: Access): GraphQLContext;
  /** For CORS: origins whose browsers may read answers. */
  guard: Pick<RequestGuard, 'allowsOrigin'>;
  /** No GraphiQL, introspection, field suggestions or parser messages. */
  hideSchema: boolean;
  /** Queries running longer are answered with a time-limit error (10 s). */
  executionTimeoutMs?: number;
  /** Queries resolving more objects are answered with an object-limit error (50,000). */
  maxQueryObjects?: number;
  /** Other systems' plugins (subscriptions that end with their token, metrics), after the limits. */
  plugins: NonNullable<YogaServerOptions<ServerContext, GraphQLContext>['plugins']>;
  logError(error: unknown): void;
}

const UNEXPECTED = () => new GraphQLError('Unexpected error.');

/**
 * The GraphQL server (Yoga) at `/graphql`: limits (GraphQL Armor, bounded parser cache, time and objects resolved), masked errors,
 * compiled queries (graphql-jit; subscriptions and documents of several operations run through graphql-js, see
 * compilesWithJit), SSE subscriptions on one connection, and map reads' answers stored on their way out.
 */
export function createGraphQLYoga(options: GraphQLYogaOptions) {
  const { guard, hideSchema, logError } = options;
  return createYoga<ServerContext, GraphQLContext>({
    schema: options.schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: hideSchema ? false : { title: 'ThinkingMap GraphQL' },
    // Only reached by requests the guard let through: the server's own origin, or one the operator allowed.
    cors: (request) => {
      const origin = request.headers.get('origin');
      return origin && guard.allowsOrigin(origin, request.headers.get('host') ?? undefined)
        ? { origin: [origin], credentials: true }
        : false;
    },
    maskedErrors: {
      isDev: false,
      // Unexpected errors reach the client as "Unexpected error." only; the server log keeps the cause.
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        if (!(original instanceof GraphQLError)) logError(original);
        return maskError(error, message);
      },
    },
    logging: false,
    parserAndValidationCache: boundedParserCache(),
    plugins: [
      armorPlugin({ hideSchema }),
      useNoInternalDetails(),
      ...(hideSchema ? [useHiddenSchema()] : []),
      useGraphQlJit(
        {},
        { cache: createCompiledQueryCache(), enableIf: compilesWithJit, onError: (result) => logError(result.errors) },
      ),
      useRunTimeBudget({
        timeoutMs: options.executionTimeoutMs ?? DEFAULT_RUN_TIME_LIMITS.timeoutMs,
        maxObjects: options.maxQueryObjects ?? DEFAULT_RUN_TIME_LIMITS.maxObjects,
      }),
      ...options.plugins,
      ...useSseSingleConnection(),
      useStoredAnswers(),
    ],
    context: async (initial) => {
      if (initial.access) return options.contextFor(initial.access);
      try {
        return options.contextFor(await options.identity.access(initial.request.headers.get('authorization')));
      } catch (error) {
        throw options.identity.refusal(error) ?? (error instanceof GraphQLError ? error : UNEXPECTED());
      }
    },
  });
}

/** The GraphQL server {@link createGraphQLYoga} builds. */
export type GraphQLYoga = ReturnType<typeof createGraphQLYoga>;
