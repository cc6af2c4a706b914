import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { formatHits } from './format-hits.ts';
import { hitSchema } from './hit-schema.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';

/** The tool's name, as agents and the client manager call it. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';

/** Registers `knowledge_search(query, context?, max_results)` on `server`, answering from `index`. */
export function registerKnowledgeSearchTool(server: McpServer, index: KnowledgeIndex): void {
  server.registerTool(
    KNOWLEDGE_SEARCH_TOOL,
    {
      title: 'Search the knowledge folder',
      description:
        'Full-text search (Chinese and English) over the knowledge documents. Returns quoted passages with ' +
        'their file path and line range. `context` re-ranks hits by the surrounding question; it adds none.',
      inputSchema: {
        query: z.string().min(1).describe('What to look for'),
        context: z.string().optional().describe('The surrounding question or goal, used to rank hits'),
        max_results: z.number().int().min(1).max(50).default(5).describe('The most passages to return'),
      },
      outputSchema: { query: z.string(), results: z.array(hitSchema) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, context, max_results }) => {
      const results = await index.search(query, { maxResults: max_results, ...(context ? { context } : {}) });
      return {
        content: [{ type: 'text', text: formatHits(results, `No passage matches "${query}".`) }],
        structuredContent: { query, results },
      };
    },
  );
}
