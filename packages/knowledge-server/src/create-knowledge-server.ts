import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerDomainKnowledgeTool } from './domain-knowledge-tool.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';
import { registerKnowledgeSearchTool } from './knowledge-search-tool.ts';

/** The name the server reports in the MCP handshake. */
export const KNOWLEDGE_SERVER_NAME = 'thinkingmap-knowledge';

/**
 * Builds an MCP server exposing `knowledge_search` and `domain_knowledge` over `index`. The server is not
 * connected: pass it a transport (stdio, Streamable HTTP, or an in-memory pair in tests). Several servers
 * may share one index; the stateless HTTP endpoint builds one per request.
 */
export function createKnowledgeServer(index: KnowledgeIndex): McpServer {
  const server = new McpServer({ name: KNOWLEDGE_SERVER_NAME, version: '0.1.0' }, { capabilities: { tools: {} } });
  registerKnowledgeSearchTool(server, index);
  registerDomainKnowledgeTool(server, index);
  return server;
}
