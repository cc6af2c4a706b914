import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { READ_ONLY_MESSAGE } from '../commands/access.ts';
import { propertyOf } from '../commands/input.ts';
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
  const refused = () => toolError('FORBIDDEN', READ_ONLY_MESSAGE);
  server.registerTool = new Proxy(server.registerTool, {
    apply(register, self, [name, config, callback]) {
      const readOnly = propertyOf(propertyOf(config, 'annotations'), 'readOnlyHint') === true;
      return Reflect.apply(register, self, [name, config, readOnly ? callback : refused]);
    },
  });
}
