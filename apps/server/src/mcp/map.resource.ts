import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { renderMapMarkdown } from '@thinkingmap/map-markdown';
import { DomainError } from '../commands/domain-errors.ts';
import { listViewerMaps } from './list-viewer-maps.ts';
import { loadMapSnapshot } from './map-snapshot.ts';
import type { McpContext } from './mcp-context.ts';

/** The URI template of a map's Markdown resource. */
export const MAP_RESOURCE_TEMPLATE = 'thinkingmap://maps/{mapId}';

/** The resource URI of a map. */
export const mapResourceUri = (mapId: string) => `thinkingmap://maps/${mapId}`;

/**
 * Registers every map of the viewer as a Markdown resource (`thinkingmap://maps/{mapId}`); listing resources
 * lists the viewer's maps. A domain error becomes a JSON-RPC error whose `data.code` is the domain code.
 */
export function registerMapResource(server: McpServer, ctx: McpContext): void {
  const template = new ResourceTemplate(MAP_RESOURCE_TEMPLATE, {
    list: async () => ({
      resources: (await listViewerMaps(ctx.commands)).map((map) => ({
        uri: mapResourceUri(map.id),
        name: map.title,
        description: `Thinking map (${map.status.toLowerCase()}, ${map.language})`,
        mimeType: 'text/markdown',
      })),
    }),
  });
  server.registerResource(
    'map',
    template,
    {
      title: 'Thinking map',
      description: 'A thinking map as Markdown: problem, tree, conclusions, open questions.',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      try {
        const snapshot = await loadMapSnapshot(ctx.commands, ctx.notes, String(variables.mapId));
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: renderMapMarkdown(snapshot) }] };
      } catch (error) {
        if (error instanceof DomainError)
          throw new McpError(ErrorCode.InvalidParams, `[${error.code}] ${error.message}`, { code: error.code });
        throw error;
      }
    },
  );
}
