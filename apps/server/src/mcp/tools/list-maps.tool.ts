import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { listViewerMaps } from '../list-viewer-maps.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolResult } from '../tool-result.ts';

/** Registers `list_maps`: the viewer's maps, newest change first. */
export function registerListMapsTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'list_maps',
    {
      title: 'List your thinking maps',
      description:
        'Lists your maps (id, title, status, language), most recently changed first. Each is also the resource thinkingmap://maps/{mapId}.',
      annotations: { readOnlyHint: true },
    },
    () =>
      runTool(async () => {
        const maps = await listViewerMaps(ctx.commands);
        return toolResult(
          { maps },
          maps.map((m) => `- ${m.title} (\`${m.id}\`, ${m.status.toLowerCase()})`).join('\n') || 'No maps yet.',
        );
      }, ctx.logError),
  );
}
