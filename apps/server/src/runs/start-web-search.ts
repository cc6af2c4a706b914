import { HttpWebSearch, type KnowledgePort } from '@thinkingmap/agent-core';
import { startKnowledge } from './start-knowledge.ts';

/** The operator's web search settings (TM_WEB_SEARCH_URL, TM_WEB_SEARCH_KEY, TM_WEB_SEARCH_MCP_CONFIG). */
export interface WebSearchSettings {
  url?: string;
  apiKey?: string;
  mcpConfigPath?: string;
  log?: (message: string) => void;
}

/**
 * Web search for divergent `webSearch` tasks, only when the operator configured a provider: an HTTP search
 * API (wins when both are set), or MCP servers each searched with its own search tool. Null: not offered.
 * Never throws: MCP servers that are down are logged, and a task searching then fails with their reason.
 */
export async function startWebSearch(
  settings: WebSearchSettings,
): Promise<{ port: KnowledgePort; close(): Promise<void> } | null> {
  if (settings.url)
    return { port: new HttpWebSearch({ url: settings.url, apiKey: settings.apiKey }), close: async () => {} };
  if (!settings.mcpConfigPath) return null;
  const log = settings.log ?? (() => {});
  const mcp = await startKnowledge({
    configPath: settings.mcpConfigPath,
    log: (message) => log(`web search ${message}`),
    port: { name: 'web search', anySearchTool: true },
  });
  return mcp && { port: mcp.port, close: () => mcp.close() };
}
