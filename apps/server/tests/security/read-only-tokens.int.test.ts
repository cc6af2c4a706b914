import { MAPS, START_CONSULTATION, VIEWER } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import {
  type GraphQLArgument,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/tokens.ts';
import { READ_ONLY_MESSAGE } from '../../src/commands/access.ts';
import { schema } from '../../src/schema/schema.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { collectOverWebSocket } from '../helpers/event-collector.ts';
import { postGraphQL } from '../helpers/http-request.ts';
import { buildThreeLevelMap, createMap, createNode } from '../helpers/map-builder.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { connectOverHttp } from '../mcp/mcp-client.ts';

const providers = await testProviders();
const SOME_ID = 'c000000000000000000000000';

/** A value of `type` that GraphQL accepts (the required fields of inputs only): enough to reach the resolver. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return Object.fromEntries(fields.map((field) => [field.name, sample(field.type)]));
  }
  if (isScalarType(type)) {
    return (
      {
        ID: SOME_ID,
        String: 'x',
        Int: 1,
        Float: 1,
        Boolean: true,
        DateTime: '2999-01-01T00:00:00Z',
        JSON: {},
      } as Record<string, unknown>
    )[type.name];
  }
  throw new Error(`no sample for ${String(type)}`);
}

/** Every mutation of the schema as a document with its required arguments as variables: derived, never listed. */
function everyMutation() {
  const required = (arg: GraphQLArgument) => isNonNullType(arg.type) && arg.defaultValue === undefined;
  return Object.values(schema.getMutationType()!.getFields()).map((field) => {
    const args = field.args.filter(required);
    const declared = args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const passed = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const query = `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''} {
      __typename ... on Error { code message } } }`;
    const variables = Object.fromEntries(args.map((arg) => [arg.name, sample(arg.type)]));
    return { name: field.name, query, variables, resultType: getNamedType(field.type).name };
  });
}

/** A value for a JSON-schema property that the MCP SDK's own argument check accepts. */
function jsonSample(property: { type?: string; enum?: unknown[]; minimum?: number }): unknown {
  if (property.enum) return property.enum[0];
  if (property.type === 'number' || property.type === 'integer') return property.minimum ?? 1;
  if (property.type === 'boolean') return true;
  if (property.type === 'object') return {};
  return SOME_ID;
}

describe.each(providers)('a read-only token on %s', (provider) => {
  let server: TestServer;
  let readOnly: string;
  let mapId: string;
  let consultationId: string;
  let tables: () => Promise<string>;

  beforeAll(async () => {
    server = await startTestServer(provider);
    readOnly = (await issueToken(server.db, server.alice.id, { scope: 'READ_ONLY', label: 'dashboard' })).token;
    const { client } = server.connect(server.alice.token);
    mapId = await createMap(client, 'Watched');
    await buildThreeLevelMap(client, mapId);
    consultationId = (await call(client, START_CONSULTATION, { input: { mapId } })).id;
    tables = async () =>
      (await snapshot(server.db)) +
      JSON.stringify(await server.db.read.consultation.findMany({ orderBy: { id: 'asc' } })) +
      JSON.stringify(await server.db.read.consultationMessage.findMany({ orderBy: { id: 'asc' } })) +
      // Every column but `lastUsedAt`: using a token records when it was used (in the background), refused or not.
      JSON.stringify(await server.db.read.apiToken.findMany({ omit: { lastUsedAt: true }, orderBy: { id: 'asc' } })) +
      JSON.stringify(await server.db.read.agentRun.findMany({ orderBy: { id: 'asc' } }));
  });
  afterAll(() => server?.close());

  it('should read and subscribe like a full token', async () => {
    const { client } = server.connect(readOnly);
    expect((await call(client, VIEWER)).id).toBe(server.alice.id);
    expect((await call(client, MAPS)).map((map) => map.id)).toContain(mapId);
    // Replayed from the log, then live: a change made with a full token reaches the dashboard.
    const events = collectOverWebSocket(client, mapId, 0);
    await events.waitFor(10);
    const root = await server.db.read.node.findFirstOrThrow({ where: { mapId, parentId: null } });
    await createNode(server.connect(server.alice.token).client, mapId, 'a dashboard sees this', root.id);
    expect((await events.waitFor(11)).at(-1)).toMatchObject({ __typename: 'NodeCreated', seq: 11 });
    events.stop();
  });

  it.each(everyMutation())(
    'should refuse $name with ForbiddenError before anything else, changing nothing',
    async (mutation) => {
      const before = await tables();
      const response = await postGraphQL(
        server.endpoint,
        mutation.query,
        { authorization: `Bearer ${readOnly}` },
        mutation.variables,
      );
      const body = JSON.parse(response.body);
      expect(body.errors, response.body).toBeUndefined();
      expect(body.data[mutation.name]).toEqual({
        __typename: 'ForbiddenError',
        code: 'FORBIDDEN',
        message: READ_ONLY_MESSAGE,
      });
      expect(await tables()).toBe(before);
      // The same call with a full token reaches the command (and fails there, on the sample arguments, or succeeds).
      const full = JSON.parse(
        (
          await postGraphQL(
            server.endpoint,
            mutation.query,
            { authorization: `Bearer ${server.bob.token}` },
            mutation.variables,
          )
        ).body,
      );
      expect(full.data?.[mutation.name]?.message).not.toBe(READ_ONLY_MESSAGE);
    },
  );

  it('should refuse every MCP tool that is not annotated read-only with FORBIDDEN, and serve the others', async () => {
    const mcp = await connectOverHttp(server.app.url(), readOnly);
    try {
      const { tools } = await mcp.listTools();
      const writes = tools.filter((tool) => tool.annotations?.readOnlyHint !== true);
      expect(writes.map((tool) => tool.name)).toEqual(
        expect.arrayContaining([
          'create_map',
          'process_node',
          'reply_to_agent',
          'add_context',
          'conclude_node',
          'start_divergent',
          'start_consultation',
          'send_consultation_message',
        ]),
      );
      for (const tool of tools) {
        const before = await tables();
        const schemaOf = tool.inputSchema as { properties?: Record<string, object>; required?: string[] };
        const args = Object.fromEntries(
          (schemaOf.required ?? []).map((name) => [
            name,
            name === 'mapId'
              ? mapId
              : name === 'consultationId'
                ? consultationId
                : jsonSample(schemaOf.properties![name]!),
          ]),
        );
        const result = await mcp.callTool({ name: tool.name, arguments: args });
        if (writes.includes(tool)) {
          expect(result, tool.name).toMatchObject({
            isError: true,
            structuredContent: { error: { code: 'FORBIDDEN' } },
          });
        } else {
          expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        }
        expect(await tables(), tool.name).toBe(before);
      }
    } finally {
      await mcp.close();
    }
  });
});
