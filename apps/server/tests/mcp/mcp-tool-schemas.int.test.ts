import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ConclusionKind, DecompositionStrategy, Language, NodeIntent } from '@thinkingmap/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { connectOverHttp } from './mcp-client.ts';

describe('the MCP tools advertise their enumerated arguments', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    client = await connectOverHttp(server.app.url(), server.alice.token);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  /** The JSON schema `tools/list` gives for one argument of one tool. */
  async function argumentSchema(tool: string, argument: string): Promise<Record<string, unknown>> {
    const { tools } = await client.listTools();
    const found = tools.find((t) => t.name === tool);
    if (!found) throw new Error(`no tool ${tool}`);
    return (found.inputSchema.properties as Record<string, Record<string, unknown>>)[argument]!;
  }

  it('should list the values of process_node’s intent, strategy and conclusionKind as JSON-schema enums', async () => {
    expect(await argumentSchema('process_node', 'intent')).toMatchObject({
      type: 'string',
      enum: Object.values(NodeIntent),
    });
    expect(await argumentSchema('process_node', 'strategy')).toMatchObject({
      enum: Object.values(DecompositionStrategy),
    });
    expect(await argumentSchema('process_node', 'conclusionKind')).toMatchObject({
      enum: Object.values(ConclusionKind),
    });
  });

  it('should list the conclusion kinds of conclude_node and the languages of create_map as enums', async () => {
    expect(await argumentSchema('conclude_node', 'kind')).toMatchObject({ enum: Object.values(ConclusionKind) });
    expect(await argumentSchema('create_map', 'language')).toMatchObject({ enum: Object.values(Language) });
  });
});
