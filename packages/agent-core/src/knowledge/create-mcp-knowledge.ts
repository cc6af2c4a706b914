import { loadMcpConfig } from './load-mcp-config.ts';
import { McpClientManager, type McpClientManagerOptions, type McpServerStatus } from './mcp-client-manager.ts';
import { McpKnowledgePort, type McpKnowledgePortOptions } from './mcp-knowledge-port.ts';
import type { McpServersConfig } from './mcp-servers-config.ts';

/** A started knowledge setup: the port for agents, the manager for other tools, and a way to stop. */
export interface McpKnowledge {
  port: McpKnowledgePort;
  manager: McpClientManager;
  /** Each server's state after the first connection attempt. */
  status: McpServerStatus[];
  close(): Promise<void>;
}

/**
 * Starts the MCP servers of a config (a path to a JSON file, or validated data) and returns a
 * {@link McpKnowledgePort} over them. Never fails because a server is down: `status` says which are.
 */
export async function createMcpKnowledge(
  config: string | McpServersConfig,
  options: McpClientManagerOptions & McpKnowledgePortOptions = {},
): Promise<McpKnowledge> {
  const resolved = typeof config === 'string' ? await loadMcpConfig(config) : config;
  const manager = new McpClientManager(resolved, options);
  const status = await manager.start();
  return { port: new McpKnowledgePort(manager, options), manager, status, close: () => manager.close() };
}
