import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, readBody } from './body-limit.ts';
import { createFairQueue } from './fair-queue.ts';
import {
  MapResponseCache,
  type MapResponseCacheOptions,
  type OrdinaryPath,
  type PendingAnswer,
} from './map-response-cache.ts';
import type { RequestIdentity } from './request-identity.ts';

/** What the GraphQL HTTP handler runs requests through: Yoga, given the server context's stored-answer hook. */
export interface YogaNodeHandler {
  graphqlEndpoint: string;
  handle(req: IncomingMessage, res: ServerResponse, context?: { storedAnswer?: PendingAnswer }): Promise<void>;
}

/** Options of {@link createGraphQLHttpHandler}. */
export interface GraphQLHttpOptions {
  yoga: YogaNodeHandler;
  /** The map-read cache's database, events, metrics and error log. */
  mapReads: Pick<MapResponseCacheOptions, 'db' | 'events' | 'onServed' | 'logError' | 'watch'>;
  /** Who requests act as. */
  identity: Pick<RequestIdentity, 'access'>;
  /** Largest request body read, in bytes. */
  maxBodyBytes: number;
  /** GraphQL requests executed at once; more wait in arrival order (8). */
  maxConcurrentRequests?: number;
}

/** Accept headers that take a JSON answer (a client may accept a stream as well: urql, so every browser query). */
const ACCEPTS_JSON = /application\/(graphql-response\+)?json/;

/**
 * GraphQL over HTTP (POST and GET; SSE subscriptions): a POST's body is read here, bounded, and handed to Yoga (as
 * body-parser middleware would); every request that takes a JSON answer then goes through the map-read cache, which
 * answers it from a stored answer or passes it to Yoga. Yoga runs at most `maxConcurrentRequests` at once, in arrival
 * order; a request that accepts a stream (an SSE subscription stays open) bypasses that queue.
 */
export function createGraphQLHttpHandler(
  options: GraphQLHttpOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { yoga, maxBodyBytes, identity } = options;
  const mapReads = new MapResponseCache({
    ...options.mapReads,
    access: (req) => identity.access(req.headers.authorization),
    endpoint: yoga.graphqlEndpoint,
  });
  const queue = createFairQueue(options.maxConcurrentRequests ?? 8);
  const run = (req: IncomingMessage, res: ServerResponse, pending: PendingAnswer | undefined) =>
    pending ? yoga.handle(req, res, { storedAnswer: pending }) : yoga.handle(req, res);
  // A request that accepts a stream may be a subscription, which stays open: it bypasses the queue (a map read does not).
  const ordinary: OrdinaryPath = (req, res, pending) => {
    if (pending || !req.headers.accept?.includes('text/event-stream')) void queue(() => run(req, res, pending));
    else void run(req, res, pending);
  };

  return (req, res) => {
    const accept = req.headers.accept ?? '';
    const cached = !accept.includes('text/event-stream') || ACCEPTS_JSON.test(accept);
    if (req.method !== 'POST') return cached ? mapReads.serve(req, res, undefined, ordinary) : ordinary(req, res);
    readBody(req, maxBodyBytes).then(
      (body) => {
        (req as IncomingMessage & { body?: Buffer }).body = body;
        if (cached) mapReads.serve(req, res, body, ordinary);
        else ordinary(req, res);
      },
      (error: unknown) => {
        if (!(error instanceof BodyTooLargeError)) return void res.destroy();
        res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
        res.end(JSON.stringify({ errors: [{ message: error.message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }));
      },
    );
  };
}
