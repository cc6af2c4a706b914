import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { mapFileName } from '@thinkingmap/map-markdown';
import { z } from 'zod';
import { ImportError } from '../../transfer/import-error.ts';
import { importMap } from '../../transfer/import-map.ts';
import { loadMapDocument, MapFileFormat, renderMapFile } from '../../transfer/map-document.ts';
import type { McpContext } from '../mcp-context.ts';
import { runTool, toolError, toolResult } from '../tool-result.ts';

const EXTENSIONS: Record<MapFileFormat, string> = { JSON: 'json', MARKDOWN: 'md', OPML: 'opml' };
const format = z
  .enum(MapFileFormat)
  .describe('JSON: everything the map holds (importable again); MARKDOWN: headings and lists; OPML: outliners');

/** Registers `export_map` and `import_map`: a map as a file and back, the same code as the API's exportMap and importMap. */
export function registerMapFileTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'export_map',
    {
      title: 'Export a thinking map as a file',
      description:
        'The whole map as a file: JSON (versioned, everything the map holds: nodes with statuses and conclusions, ' +
        'dependencies, context, both conversations, decisions, consultation records, notes), Markdown or OPML. ' +
        'The text is the file; structured content names it.',
      inputSchema: { mapId: z.string(), format },
      annotations: { readOnlyHint: true },
    },
    ({ mapId, format }) =>
      runTool(async () => {
        const map = await loadMapDocument(ctx.commands, ctx.notes, mapId);
        const content = renderMapFile(map, format);
        const result = toolResult({ mapId: map.id, format, fileName: mapFileName(map.title, EXTENSIONS[format]) });
        return { ...result, content: [{ type: 'text', text: content }] };
      }, ctx.logError),
  );
  server.registerTool(
    'import_map',
    {
      title: 'Import a file as a new thinking map',
      description:
        'Creates a map of yours from a file: a JSON export of a map (everything comes back), a Markdown outline ' +
        '(headings or nested lists) or OPML (XMind, MindNode, Logseq, Workflowy, OmniOutliner). At most 2,000 nodes. ' +
        'A file that cannot be read answers VALIDATION with the place (a line or a path) in `field`; nothing is created.',
      inputSchema: {
        format,
        content: z.string().describe("The file's text"),
        title: z.string().optional().describe("The map's title; else the file's"),
      },
    },
    ({ format, content, title }) =>
      runTool(async () => {
        try {
          const map = await importMap(ctx.commands, ctx.notes, { format, content, title });
          const nodes = await ctx.commands.db.read.node.count({ where: { mapId: map.id } });
          return toolResult(
            { mapId: map.id, title: map.title, language: map.language, nodes },
            `Imported "${map.title}" (\`${map.id}\`) with ${nodes} nodes. Read it with get_map.`,
          );
        } catch (error) {
          if (error instanceof ImportError) return toolError(error.code, error.message, error.where);
          throw error;
        }
      }, ctx.logError),
  );
}
