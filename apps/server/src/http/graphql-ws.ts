import type { Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import { type Extra, useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { TokenRevocations } from '../auth/token-revocations.ts';
import type { Access } from '../commands/access.ts';
import type { GraphQLYoga } from './graphql-yoga.ts';
import type { RequestGuard } from './request-guard.ts';
import type { RequestIdentity } from './request-identity.ts';
import { connectionCap, FLOOD_CLOSE_CODE } from './subscription-caps.ts';

/** Options of {@link attachGraphQLWs}. */
export interface GraphQLWsOptions {
  /** The HTTP server whose upgrades to the GraphQL endpoint are taken. */
  server: Server;
  yoga: Pick<GraphQLYoga, 'getEnveloped' | 'graphqlEndpoint'>;
  guard: Pick<RequestGuard, 'check'>;
  identity: RequestIdentity;
  revocations: Pick<TokenRevocations, 'track'>;
  /** Operations one connection may hold at once (100); one more is refused with SUBSCRIPTION_LIMIT. */
  perConnection: number;
  logError(error: unknown): void;
}

/** What envelop hands each operation to run it: its own parse, validate, context, execute and subscribe. */
type Enveloped = ReturnType<GraphQLYoga['getEnveloped']>;

type WsContext = Context<Record<string, unknown>, Extra>;

/**
 * GraphQL over WebSocket (graphql-ws) on the GraphQL endpoint, through Yoga's envelop (`getEnveloped`), so every
 * plugin applies as over HTTP. A connection's token is resolved once, at connect; a missing or refused one closes it
 * (4403). Revoking the token or its expiry closes the socket once its subscriptions have ended. A connection that keeps
 * subscribing past its cap is closed (4429). Returns the stop.
 */
export function attachGraphQLWs(options: GraphQLWsOptions): () => Promise<void> {
  const { yoga, guard, identity, revocations, logError } = options;
  const wss = new WebSocketServer({
    server: options.server,
    path: yoga.graphqlEndpoint,
    // A cross-site page may open a WebSocket to any address: the upgrade is refused unless the guard allows it.
    verifyClient: ({ req }, done) => {
      const refusal = guard.check(req, true);
      if (refusal) done(false, refusal.status, refusal.message);
      else done(true);
    },
  });
  const viewers = new WeakMap<object, Access>();
  const cap = connectionCap(options.perConnection);
  // graphql-ws runs the very arguments onSubscribe returned: each is run by the envelop it was made with.
  const runners = new WeakMap<ExecutionArgs, Enveloped>();
  const wsServer = useServer(
    {
      onConnect: async (ctx: WsContext) => {
        const params = ctx.connectionParams ?? {};
        try {
          const access = await identity.access(params.authorization ?? params.Authorization ?? params.token);
          viewers.set(ctx, access);
          // The close (4403 Forbidden, graphql-ws' own code) waits for the next turn of the event loop: graphql-ws
          // queues each subscription's last error and `complete` in the same job as its end, so the client sees the
          // subscription complete, not cut off.
          const socket = ctx.extra.socket;
          const closeAfterComplete = () => void setImmediate(() => socket.close(4403, 'Forbidden'));
          const untrack = revocations.track(access, closeAfterComplete, { last: true });
          socket.once('close', untrack);
          return true;
        } catch (error) {
          // A missing or unknown token is refused (graphql-ws closes with 4403); anything else is also logged.
          if (!identity.refusal(error)) logError(error);
          return false;
        }
      },
      execute: (args: ExecutionArgs) => runners.get(args)!.execute(args),
      subscribe: (args: ExecutionArgs) => runners.get(args)!.subscribe(args),
      onSubscribe: async (ctx: WsContext, id: string, params: SubscribePayload) => {
        const overCap = cap.admit(ctx.subscriptions, id);
        if (overCap?.flooding) ctx.extra.socket.close(FLOOD_CLOSE_CODE, cap.reason);
        if (overCap) return overCap.errors;
        const access = viewers.get(ctx)!;
        // Between its token's expiry and the socket's close, nothing more is run with it.
        const ended = identity.ended(access);
        if (ended) return [ended];
        const enveloped = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          access,
        });
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: params.operationName,
          document: enveloped.parse(params.query),
          variableValues: params.variables,
          contextValue: await enveloped.contextFactory(),
        };
        const errors = enveloped.validate(args.schema, args.document);
        if (errors.length) return errors;
        runners.set(args, enveloped);
        return args;
      },
    },
    wss,
  );
  return async () => {
    await wsServer.dispose();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
