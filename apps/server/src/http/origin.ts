/** What a browser tells about where a request comes from. */
export interface RequestOrigin {
  /** The `Origin` header (browsers send it on cross-origin requests, WebSocket upgrades and every POST). */
  origin?: string;
  /** The `Host` header the request was sent to. */
  host?: string;
  /** The `Sec-Fetch-Site` header (`same-origin`, `same-site`, `cross-site`, `none`). */
  fetchSite?: string;
}

/** The `scheme://host[:port]` form of an origin, or null when it is not one (`null`, garbage). */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? null : url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Decides whether a request to the API (GraphQL over HTTP, SSE and WebSocket; MCP) may come from where the
 * browser says it comes from. A request without `Origin` and without `Sec-Fetch-Site: cross-site|same-site`
 * is not a browser's cross-site request (curl, SDKs, the server's own pages' same-origin GETs) and passes.
 * Otherwise the origin must be the server's own — the same host and port the request was sent to, which the
 * host check has already accepted — or one the operator allowed (`TM_ALLOWED_ORIGINS`). So a page on another
 * site can neither read nor change the local user's maps, and a cross-site WebSocket is refused at upgrade.
 */
export function createOriginCheck(allowedOrigins: readonly string[] = []): (request: RequestOrigin) => boolean {
  const allowed = new Set(allowedOrigins.map(normaliseOrigin).filter((origin): origin is string => !!origin));
  return ({ origin, host, fetchSite }) => {
    if (origin === undefined) return fetchSite !== 'cross-site' && fetchSite !== 'same-site';
    const normalised = normaliseOrigin(origin);
    if (!normalised) return false;
    if (allowed.has(normalised)) return true;
    return !!host && new URL(normalised).host === host.trim().toLowerCase();
  };
}
