import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHostCheck } from './host.ts';
import { createOriginCheck } from './origin.ts';

/** Who may reach the server: see {@link createRequestGuard}. */
export interface RequestGuardOptions {
  /** Host names answered besides localhost and IP addresses (`TM_ALLOWED_HOSTS`); `*` for any. */
  allowedHosts?: readonly string[];
  /** Origins allowed to call the API besides the server's own (`TM_ALLOWED_ORIGINS`). */
  allowedOrigins?: readonly string[];
}

/** Why a request was refused, and the status it is answered with. */
export interface Refusal {
  status: 403 | 421;
  message: string;
}

/** Checks requests and WebSocket upgrades against the host and origin rules. */
export interface RequestGuard {
  /** Every request: null when it may go on, else why not. `api` adds the origin rule (GraphQL, MCP). */
  check(req: IncomingMessage, api: boolean): Refusal | null;
  /** Answers a refused request (plain text, or JSON for the API). */
  refuse(res: ServerResponse, refusal: Refusal): void;
  /** For CORS: whether a browser on `origin` may read the API's answers (sent to `host`). */
  allowsOrigin(origin: string, host: string | undefined): boolean;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The server's front door for people on other sites. Every request must name an accepted host (against DNS
 * rebinding, see {@link createHostCheck}); API requests and WebSocket upgrades must also come from the server's
 * own origin or an allowed one ({@link createOriginCheck}). This is what keeps the embedded local user — who
 * needs no token — reachable only by the person at the machine.
 */
export function createRequestGuard(options: RequestGuardOptions = {}): RequestGuard {
  const hostAllowed = createHostCheck(options.allowedHosts);
  const originAllowed = createOriginCheck(options.allowedOrigins);
  return {
    check(req, api) {
      const host = header(req, 'host');
      if (!hostAllowed(host)) return { status: 421, message: `host not allowed: ${host ?? '(none)'}` };
      const origin = header(req, 'origin');
      if (api && !originAllowed({ origin, host, fetchSite: header(req, 'sec-fetch-site') })) {
        return { status: 403, message: `cross-origin request refused: ${origin ?? 'another site'}` };
      }
      return null;
    },
    refuse(res, refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: 'FORBIDDEN' } }] }));
    },
    allowsOrigin: (origin, host) => hostAllowed(host) && originAllowed({ origin, host }),
  };
}
