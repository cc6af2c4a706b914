import { isIP } from 'node:net';

/** Host names every server accepts: the loopback names, and any IP address literal. */
const LOOPBACK_NAMES = new Set(['localhost']);

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower-cased, without port or brackets. */
export function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  const colon = value.indexOf(':');
  return colon >= 0 && value.indexOf(':', colon + 1) < 0 ? value.slice(0, colon) : value;
}

/**
 * Decides which `Host` headers the server answers, against DNS rebinding: a page on `evil.example` whose name
 * is made to resolve to 127.0.0.1 reaches the server with `Host: evil.example`, and is refused. Accepted:
 * `localhost` and its subdomains, any IP address (a page served from an IP address is its own origin, so a
 * browser keeps it apart from every other site), and the names the operator lists (`TM_ALLOWED_HOSTS`;
 * a name starting with a dot also allows its subdomains; `*` allows every name, for a proxy that checks them).
 * This is the rule Vite's dev server applies (`server.allowedHosts`).
 */
export function createHostCheck(allowed: readonly string[] = []): (host: string | undefined) => boolean {
  const names = allowed.map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (names.includes('*')) return () => true;
  const accepts = (host: string | undefined) => {
    if (!host) return false;
    const name = hostName(host);
    if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || isIP(name) !== 0) return true;
    return names.some((allowedName) =>
      allowedName.startsWith('.') ? name === allowedName.slice(1) || name.endsWith(allowedName) : name === allowedName,
    );
  };
  // Every request is checked, and nearly all name the same host: the last answer is kept (the rule is fixed).
  let lastHost: string | undefined;
  let lastAnswer = false;
  return (host) => {
    if (host !== lastHost || host === undefined) {
      lastAnswer = accepts(host);
      lastHost = host;
    }
    return lastAnswer;
  };
}
