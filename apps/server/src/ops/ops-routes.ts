import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import type { ServerMetrics } from './metrics.ts';

/** How long /readyz waits for the database and the bus before calling them unreachable. */
const READY_TIMEOUT_MS = 2_000;

/** Options of {@link createOpsRoutes}. */
export interface OpsRoutesOptions {
  db: Database;
  bus: EventBus;
  metrics: ServerMetrics;
  /**
   * Who may read /metrics on the API's own port: `open` (the embedded default, where the request guard already
   * keeps out everyone but the person at the machine), a bearer token (`TM_METRICS_TOKEN`), or nobody (`closed`:
   * tokens are required and no metrics token is set; Prometheus scrapes the separate `TM_METRICS_PORT`).
   */
  publicMetrics: 'open' | 'closed' | { token: string };
}

/** The operators' routes: `handle` answers them and returns true, or returns false for any other path. */
export interface OpsRoutes {
  /** On the API's port: /healthz and /readyz always, /metrics as `publicMetrics` allows. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** On the private metrics port: all three, without a token. */
  handlePrivate(req: IncomingMessage, res: ServerResponse): boolean;
}

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
};
const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `/healthz`: the process answers (200). `/readyz`: the database answers a read and the event bus is connected
 * (200), else 503 with the reasons (`{ status, checks: { database, bus } }`), so a load balancer stops sending
 * traffic to an instance that cannot serve it. `/metrics`: the Prometheus text of the app's registry.
 */
export function createOpsRoutes(options: OpsRoutesOptions): OpsRoutes {
  const { db, bus, metrics } = options;
  const check = async (what: string, probe: () => Promise<unknown>) => {
    try {
      await within(probe(), what);
      return 'ok';
    } catch (error) {
      return `unreachable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  };
  const ready = async (res: ServerResponse) => {
    const [database, eventBus] = await Promise.all([
      check('the database', () => db.read.user.findFirst({ select: { id: true } })),
      check('the event bus', () => bus.ping(READY_TIMEOUT_MS)),
    ]);
    const ok = database === 'ok' && eventBus === 'ok';
    sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'unavailable', checks: { database, bus: eventBus } });
  };
  const scrape = async (res: ServerResponse) => {
    try {
      send(res, 200, metrics.registry.contentType, await metrics.text());
    } catch (error) {
      send(
        res,
        500,
        'text/plain; charset=utf-8',
        `metrics failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  };
  // allowMetrics: true, or the status that refuses (404: not served here; 401: a wrong or missing token).
  const route = (
    req: IncomingMessage,
    res: ServerResponse,
    allowMetrics: (req: IncomingMessage) => true | 401 | 404,
  ) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    // Every GET passes here (a map read's URL holds its whole query): the path is cut, not split.
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (path === '/healthz') send(res, 200, 'text/plain; charset=utf-8', 'ok\n');
    else if (path === '/readyz') void ready(res);
    else if (path !== '/metrics') return false;
    else {
      const allowed = allowMetrics(req);
      if (allowed === true) void scrape(res);
      else {
        if (allowed === 401) res.setHeader('www-authenticate', 'Bearer');
        send(res, allowed, 'text/plain; charset=utf-8', allowed === 401 ? 'Unauthorized\n' : 'Not found\n');
      }
    }
    return true;
  };
  const pub = options.publicMetrics;
  return {
    handle: (req, res) =>
      route(req, res, (r) => {
        if (pub === 'open') return true;
        if (pub === 'closed') return 404;
        const given = /^Bearer\s+(.+)$/i.exec(r.headers.authorization ?? '')?.[1]?.trim() ?? '';
        return sameSecret(given, pub.token) || 401;
      }),
    handlePrivate: (req, res) => route(req, res, () => true as const),
  };
}
