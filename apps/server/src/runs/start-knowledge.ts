import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  createMcpKnowledge,
  type McpKnowledge,
  type McpKnowledgePortOptions,
  type McpServersConfig,
} from '@thinkingmap/agent-core';
import { repoDir } from '@thinkingmap/db';
import { defaultMcpConfig } from './default-mcp-config.ts';

/** Options of {@link startKnowledge}. */
export interface StartKnowledgeOptions {
  /** TM_MCP_CONFIG: a servers file, or `none` for no knowledge; else `mcp-servers.json` at the repo root if present. */
  configPath?: string;
  /** A config given as data (tests); wins over `configPath`. */
  config?: McpServersConfig;
  log?: (message: string) => void;
  /** How the port names itself and searches (a web search provider's servers: their own search tools). */
  port?: Pick<McpKnowledgePortOptions, 'name' | 'anySearchTool'>;
}

/** Which config to use and how to name it in the log. */
function chooseConfig(options: StartKnowledgeOptions): { config: string | McpServersConfig; label: string } | null {
  if (options.config) return { config: options.config, label: 'the given config' };
  if (options.configPath === 'none') return null;
  if (options.configPath) return { config: resolve(options.configPath), label: resolve(options.configPath) };
  const repoConfig = join(repoDir, 'mcp-servers.json');
  if (existsSync(repoConfig)) return { config: repoConfig, label: repoConfig };
  return { config: defaultMcpConfig(), label: 'the built-in knowledge server on knowledge/' };
}

/**
 * Connects the configured knowledge MCP servers for the agents and logs what answered. Never throws: a
 * server that is down is logged and retried by the manager when a search needs it, and a config that
 * cannot be read leaves the agents without knowledge (they post a notice when they would search).
 */
export async function startKnowledge(options: StartKnowledgeOptions = {}): Promise<McpKnowledge | null> {
  const log = options.log ?? (() => {});
  const chosen = chooseConfig(options);
  if (!chosen) {
    log('knowledge: none (TM_MCP_CONFIG=none)');
    return null;
  }
  try {
    const knowledge = await createMcpKnowledge(chosen.config, {
      ...options.port,
      onNotice: (notice) => log(`knowledge: ${notice.message}`),
    });
    log(`knowledge: MCP servers from ${chosen.label}`);
    for (const server of knowledge.status) {
      const tools = server.tools.length ? ` (${server.tools.join(', ')})` : '';
      log(`knowledge: ${server.name} ${server.state}${tools}${server.lastError ? `: ${server.lastError}` : ''}`);
    }
    return knowledge;
  } catch (error) {
    log(`knowledge: not started: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
