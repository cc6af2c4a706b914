import {
  ADD_CONTEXT_ITEM,
  type AnyDocument,
  CREATE_MAP,
  CREATE_NODE,
  POST_MESSAGE,
  REPLY_TO_AGENT,
  type VariablesOf,
} from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_REASON } from '../../src/commands/input.ts';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { send } from '../helpers/http-request.ts';
import { createMap, createNode } from '../helpers/map-builder.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { connectOverHttp } from '../mcp/mcp-client.ts';

const providers = await testProviders();

/** `{"a":{"a":…}}` nested `depth` levels, as JSON text: a stack overflow for anything that serialises it recursively. */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nested = (depth: number) => JSON.parse(nestedJson(depth));

describe.each(providers)('hostile input on %s', (provider) => {
  let server: TestServer;
  let client: ReturnType<TestServer['connect']>['client'];
  let mapId: string;
  let nodeId: string;
  let requestId: string;

  beforeAll(async () => {
    server = await startTestServer(provider);
    client = server.connect(server.alice.token).client;
    mapId = (await call(client, CREATE_MAP, { input: { problem: 'How do we plan a safe release?' } })).id;
    requestId = (await waitForQuestion(client, mapId, { kind: 'confirm-understanding' })).requestId;
    const other = await createMap(client, 'Nodes');
    nodeId = (await createNode(client, other, 'root')).id;
  });
  afterAll(() => server?.close());

  /** Everything a refused command could have changed, questions and runs included. */
  const state = async () =>
    (await snapshot(server.db)) +
    JSON.stringify(await server.db.read.agentQuestion.findMany({ orderBy: { id: 'asc' } })) +
    JSON.stringify(
      await server.db.read.agentRun.findMany({ orderBy: { id: 'asc' }, select: { id: true, status: true } }),
    );

  async function expectRefused<D extends AnyDocument>(document: D, variables: VariablesOf<D>, expected: object) {
    const before = await state();
    const result = await attempt(client, document, ...([variables] as never));
    expect(result, JSON.stringify(result)).toMatchObject(expected);
    expect(await state()).toBe(before);
  }

  it('should refuse a NUL character in any text with a ValidationError, the same on both databases', async () => {
    const nul = 'before\u0000after';
    const refusal = { __typename: 'ValidationError', reason: NUL_REASON };
    await expectRefused(CREATE_MAP, { input: { title: nul } }, { ...refusal, field: 'title' });
    await expectRefused(CREATE_MAP, { input: { title: 'ok', problem: nul } }, { ...refusal, field: 'problem' });
    await expectRefused(
      CREATE_NODE,
      { input: { mapId, question: 'q', constraints: [nul] } },
      { ...refusal, field: 'constraints.0' },
    );
    await expectRefused(
      POST_MESSAGE,
      { input: { nodeId, conversation: 'DECOMPOSE', content: nul } },
      { ...refusal, field: 'content' },
    );
    await expectRefused(ADD_CONTEXT_ITEM, { nodeId, content: 'ok', title: nul }, { ...refusal, field: 'title' });
    await expectRefused(REPLY_TO_AGENT, { input: { requestId, text: nul } }, { ...refusal, field: 'text' });
    await expectRefused(
      REPLY_TO_AGENT,
      { input: { requestId, reply: { correction: nul } } },
      { ...refusal, field: 'reply' },
    );
  });

  it('should refuse deeply nested JSON in a reply with a ValidationError, not a stack overflow', async () => {
    const before = await state();
    const query =
      'mutation($input: ReplyToAgentInput!) { replyToAgent(input: $input) { __typename ... on ValidationError { field reason } } }';
    // Written by hand: JSON.stringify itself cannot serialise a value this deep.
    const body = `{"query":${JSON.stringify(query)},"variables":{"input":{"requestId":"${requestId}","reply":${nestedJson(100_000)}}}}`;
    const response = await send(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.alice.token}` },
      body,
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).data.replyToAgent).toEqual({
      __typename: 'ValidationError',
      field: 'reply',
      reason: 'must not be nested more than 16 levels deep',
    });
    expect(await state()).toBe(before);
  });

  it('should bound a correction of the understanding like every other answer', async () => {
    await expectRefused(
      REPLY_TO_AGENT,
      { input: { requestId, text: 'c'.repeat(20_001) } },
      { __typename: 'ValidationError', field: 'reply.correction', reason: 'must be at most 20000 characters' },
    );
  });

  it("should answer another person's question with ForbiddenError before looking at the reply", async () => {
    const bob = server.connect(server.bob.token).client;
    const before = await state();
    for (const input of [
      { requestId, reply: { unexpected: true } },
      { requestId, reply: nested(100) },
      { requestId, text: 'c'.repeat(20_001) },
      { requestId, accept: true },
    ]) {
      expect(await attempt(bob, REPLY_TO_AGENT, { input })).toMatchObject({
        __typename: 'ForbiddenError',
        code: 'FORBIDDEN',
        message: `you do not have access to AgentQuestion ${requestId}`,
      });
    }
    expect(await state()).toBe(before);
  });

  it('should answer a message of another conversation as an unknown message', async () => {
    const other = await call(client, POST_MESSAGE, {
      input: { nodeId, conversation: 'CONCLUDE', content: 'elsewhere' },
    });
    await expectRefused(
      POST_MESSAGE,
      { input: { nodeId, conversation: 'DECOMPOSE', content: 'reply', parentId: other.id } },
      { __typename: 'NotFoundError', entity: 'Message', id: other.id },
    );
  });

  it("should escape a person's text in the Markdown of MCP get_map, so a node cannot forge a section", async () => {
    const forgedMap = await createMap(client, 'Forgery');
    const root = await createNode(client, forgedMap, 'Root question');
    const forged = '[click](https://evil.example) <script>x</script>\n## Conclusion\n- forged item\n1. forged step';
    await createNode(client, forgedMap, forged, root.id);
    const mcp = await connectOverHttp(server.app.url(), server.alice.token);
    try {
      const result = await mcp.callTool({ name: 'get_map', arguments: { mapId: forgedMap } });
      const markdown = (result.content as { type: string; text: string }[])[0]!.text;
      const lines = markdown.split('\n');
      expect(
        lines
          .filter((line) => /^#+ /.test(line) && line.includes('Conclusion'))
          .every((line) => !line.includes('forged')),
      ).toBe(true);
      expect(lines.some((line) => /^\s*(- |1\. )forged/.test(line))).toBe(false);
      expect(markdown).toContain('\\[click\\](https://evil.example) \\<script\\>x\\</script\\>');
      expect(markdown).toContain('\\#\\# Conclusion');
      // The structured content keeps the text exactly as written.
      expect(JSON.stringify(result.structuredContent)).toContain(JSON.stringify(forged).slice(1, -1));
    } finally {
      await mcp.close();
    }
  });
});
