export { classifyFailure } from './classify-failure.ts';
export { createMcpKnowledge, type McpKnowledge } from './create-mcp-knowledge.ts';
export * from './http-web-search.ts';
export type { KnowledgeNotice, KnowledgeNoticeKind } from './knowledge-notice.ts';
export { loadMcpConfig, parseMcpConfig } from './load-mcp-config.ts';
export {
  type DiscoveredTool,
  McpClientManager,
  type McpClientManagerOptions,
  type McpServerStatus,
} from './mcp-client-manager.ts';
export {
  DOMAIN_KNOWLEDGE_TOOL,
  KNOWLEDGE_SEARCH_TOOL,
  type KnowledgeAnswer,
  McpKnowledgePort,
  type McpKnowledgePortOptions,
} from './mcp-knowledge-port.ts';
export {
  DEFAULT_TIMEOUT_MS,
  type HttpServerEntry,
  type McpServerEntry,
  type McpServersConfig,
  type McpServersConfigInput,
  mcpServersConfigSchema,
  type StdioServerEntry,
} from './mcp-servers-config.ts';
export { type McpKnowledgeResult, type McpKnowledgeSource, parseSearchResults } from './parse-search-results.ts';
export type { ConnectionState } from './server-connection.ts';
export type { ToolCallOutcome } from './tool-call-outcome.ts';
