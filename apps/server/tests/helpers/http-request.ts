import { request } from 'node:http';

/** A response as the attack tests read it. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one HTTP request with exactly the headers given (a `Host` or `Origin` a browser or an attacker would
 * send, which fetch does not let a test set), and reads the whole answer.
 */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POSTs a GraphQL document as JSON with extra headers. */
export function postGraphQL(
  endpoint: string,
  query: string,
  headers: Record<string, string> = {},
  variables?: Record<string, unknown>,
): Promise<PlainResponse> {
  return send(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}
