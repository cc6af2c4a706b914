import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphQL, send } from '../helpers/http-request.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const INTROSPECTION = '{ __schema { types { name } } }';

describe('a server that requires tokens (exposed)', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { requireToken: true });
    auth = { authorization: `Bearer ${server.alice.token}` };
  });
  afterAll(() => server?.close());

  it('should refuse introspection, even for a valid token', async () => {
    const body = JSON.parse((await postGraphQL(server.endpoint, INTROSPECTION, auth)).body);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/introspection/i);
    const type = JSON.parse((await postGraphQL(server.endpoint, '{ __type(name: "Map") { name } }', auth)).body);
    expect(type.errors[0].message).toMatch(/introspection/i);
  });

  it('should not serve GraphiQL', async () => {
    const page = await send(server.endpoint, { headers: { accept: 'text/html', ...auth } });
    expect(page.body).not.toMatch(/graphiql/i);
  });

  it('should not suggest field names', async () => {
    const body = JSON.parse((await postGraphQL(server.endpoint, '{ viewr { id } }', auth)).body);
    expect(body.errors[0].message).toMatch(/Cannot query field "viewr"/);
    expect(body.errors[0].message).not.toMatch(/Did you mean/);
  });

  it("should not echo the parser's messages, only where the syntax error is", async () => {
    const body = JSON.parse((await postGraphQL(server.endpoint, '{ viewer { id } secretword', auth)).body);
    expect(body.errors).toEqual([
      expect.objectContaining({ message: 'Syntax error at line 1, column 27.', extensions: expect.anything() }),
    ]);
    expect(JSON.stringify(body)).not.toMatch(/secretword|Expected|<EOF>/);
  });

  it("should not quote an unreadable body back in the parser's error", async () => {
    const broken = await send(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: '{"query": "{ viewer { id } }", ',
    });
    expect(JSON.parse(broken.body).errors[0].message).toBe('POST body sent invalid JSON.');
    expect(broken.body).not.toMatch(/at JSON|position \d+|SyntaxError|\.ts:\d+/);
  });
});

describe('the embedded default, for the person at the machine', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { requireToken: false });
  });
  afterAll(() => server?.close());

  it('should keep introspection, GraphiQL and suggestions for development', async () => {
    const body = JSON.parse((await postGraphQL(server.endpoint, INTROSPECTION)).body);
    expect(body.data.__schema.types.length).toBeGreaterThan(10);
    expect((await send(server.endpoint, { headers: { accept: 'text/html' } })).body).toMatch(/graphiql/i);
    const typo = JSON.parse((await postGraphQL(server.endpoint, '{ viewr { id } }')).body);
    expect(typo.errors[0].message).toMatch(/Did you mean "viewer"/);
  });
});
