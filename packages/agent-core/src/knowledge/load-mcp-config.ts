import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AgentError } from '../errors/agent-error.ts';
import { type McpServersConfig, mcpServersConfigSchema } from './mcp-servers-config.ts';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function expand(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return value.replace(VARIABLE, (_, name: string) => env[name] ?? '');
  if (Array.isArray(value)) return value.map((item) => expand(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, env)]));
  }
  return value;
}

/**
 * Validates a servers configuration given as data. `${NAME}` in any string is replaced by the environment
 * variable (empty when unset) so tokens stay out of the file; a relative stdio `cwd` is resolved against
 * `baseDir`. Throws an {@link AgentError} `INVALID_INPUT` naming the offending field.
 */
export function parseMcpConfig(raw: unknown, baseDir = process.cwd(), env = process.env): McpServersConfig {
  const parsed = mcpServersConfigSchema.safeParse(expand(raw, env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AgentError('INVALID_INPUT', `MCP servers config: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  for (const entry of Object.values(parsed.data.mcpServers)) {
    if ('command' in entry) entry.cwd = resolve(baseDir, entry.cwd ?? '.');
  }
  return parsed.data;
}

/** Reads and validates a servers file (JSON); see {@link parseMcpConfig}. */
export async function loadMcpConfig(path: string, env = process.env): Promise<McpServersConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new AgentError(
      'INVALID_INPUT',
      `MCP servers config ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return parseMcpConfig(raw, dirname(resolve(path)), env);
}
