import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerMapResource } from './map.resource.ts';
import type { McpContext } from './mcp-context.ts';
import { refuseWritesWhenReadOnly } from './read-only-guard.ts';
import { registerAddContextTool } from './tools/add-context.tool.ts';
import { registerConcludeNodeTool } from './tools/conclude-node.tool.ts';
import { registerConsultationTools } from './tools/consultation.tools.ts';
import { registerCreateMapTool } from './tools/create-map.tool.ts';
import { registerGetMapTool } from './tools/get-map.tool.ts';
import { registerListMapsTool } from './tools/list-maps.tool.ts';
import { registerMapFileTools } from './tools/map-file.tools.ts';
import { registerProcessNodeTool } from './tools/process-node.tool.ts';
import { registerReplyToAgentTool } from './tools/reply-to-agent.tool.ts';
import { registerStartDivergentTool } from './tools/start-divergent.tool.ts';

/** The name ThinkingMap reports in the MCP handshake. */
export const MCP_SERVER_NAME = 'thinkingmap';

const INSTRUCTIONS = `ThinkingMap breaks a problem into a tree of questions with AI agents, with a person in the loop.
Start with create_map(problem); answer the agents' questions with reply_to_agent(requestId, accept | text);
process each node with process_node(nodeId); read the map at any time with get_map(mapId) or the resource
thinkingmap://maps/{mapId}. Or talk it through: start_consultation, send_consultation_message (a front agent
answers at once, a planner works behind), get_consultation. Bring maps in and out as files with import_map and export_map (JSON, MARKDOWN, OPML). Errors carry a code: VALIDATION, NOT_FOUND, FORBIDDEN, CONFLICT, CYCLE, VERSION_CONFLICT.`;

/**
 * Builds ThinkingMap's MCP server for one viewer: the tools create_map, get_map, list_maps, process_node,
 * reply_to_agent, add_context, conclude_node, start_consultation, send_consultation_message, get_consultation,
 * export_map, import_map and the map resources; a read-only caller may use only the tools
 * annotated `readOnlyHint` (see read-only-guard.ts). Not connected: give it a transport
 * (Streamable HTTP per request, or stdio).
 */
export function createThinkingMapMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: '0.1.0' },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  refuseWritesWhenReadOnly(server, ctx);
  registerCreateMapTool(server, ctx);
  registerGetMapTool(server, ctx);
  registerListMapsTool(server, ctx);
  registerProcessNodeTool(server, ctx);
  registerStartDivergentTool(server, ctx);
  registerReplyToAgentTool(server, ctx);
  registerAddContextTool(server, ctx);
  registerConcludeNodeTool(server, ctx);
  registerConsultationTools(server, ctx);
  registerMapFileTools(server, ctx);
  registerMapResource(server, ctx);
  return server;
}
