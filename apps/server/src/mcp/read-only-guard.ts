import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { READ_ONLY_MESSAGE } from '../commands/access.ts';
import type { McpContext } from './mcp-context.ts';
import { toolError } from './tool-result.ts';

/**
 * Makes every tool registered on `server` afterwards refuse a read-only caller with FORBIDDEN, unless the tool is
 * annotated `readOnlyHint: true` — the MCP annotation that says it changes nothing. The refusal comes before the
 * tool's work, and a tool added later is covered without a line of its own: forgetting the annotation refuses
 * too much, never too little. Tools still appear in `tools/list`, with their annotations, for every caller.
 */
export function refuseWritesWhenReadOnly(server: McpServer, ctx: McpContext): void {
  if (ctx.commands.scope !== 'READ_ONLY') return;
  const register = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  const refused = () => toolError('FORBIDDEN', READ_ONLY_MESSAGE);
  server.registerTool = ((name: string, config: { annotations?: { readOnlyHint?: boolean } }, callback: unknown) =>
    register(name, config, config.annotations?.readOnlyHint === true ? callback : refused)) as never;
}
