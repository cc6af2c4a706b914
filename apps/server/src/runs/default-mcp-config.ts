import { join } from 'node:path';
import { type McpServersConfig, type McpServersConfigInput, mcpServersConfigSchema } from '@thinkingmap/agent-core';
import { repoDir } from '@thinkingmap/db';

/** Where the built-in knowledge server lives in this repository. */
export const KNOWLEDGE_SERVER_DIR = join(repoDir, 'packages/knowledge-server');

/**
 * The config used when none is given: the built-in knowledge server (packages/knowledge-server) over
 * stdio, indexing the repository's `knowledge/` folder (or `folder`).
 */
export function defaultMcpConfig(folder = join(repoDir, 'knowledge')): McpServersConfig {
  const input: McpServersConfigInput = {
    timeoutMs: 10_000,
    mcpServers: {
      knowledge: {
        command: process.execPath,
        args: [join(KNOWLEDGE_SERVER_DIR, 'bin/knowledge-server.js'), '--stdio', '--folder', folder],
        cwd: KNOWLEDGE_SERVER_DIR,
      },
    },
  };
  return mcpServersConfigSchema.parse(input);
}
