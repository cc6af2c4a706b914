import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { domainKnowledge } from './domain-knowledge.ts';
import { formatHits } from './format-hits.ts';
import { hitSchema } from './hit-schema.ts';
import type { KnowledgeIndex } from './knowledge-index.ts';

/** The tool's name, as agents and the client manager call it. */
export const DOMAIN_KNOWLEDGE_TOOL = 'domain_knowledge';

const documentSchema = z.object({
  path: z.string(),
  title: z.string(),
  domains: z.array(z.string()),
  sections: z.array(z.object({ heading: z.string(), startLine: z.number().int() })),
});

/** Registers `domain_knowledge(domain, topic?)` on `server`, answering from `index`. */
export function registerDomainKnowledgeTool(server: McpServer, index: KnowledgeIndex): void {
  server.registerTool(
    DOMAIN_KNOWLEDGE_TOOL,
    {
      title: 'Knowledge of a domain',
      description:
        'The documents about a domain (for example "decision making" or "产品规划") with their outlines, and ' +
        'either the passages about `topic` in them or, without a topic, their opening passages.',
      inputSchema: {
        domain: z.string().min(1).describe('The field of knowledge'),
        topic: z.string().optional().describe('A topic within the domain'),
      },
      outputSchema: {
        domain: z.string(),
        topic: z.string().optional(),
        documents: z.array(documentSchema),
        passages: z.array(hitSchema),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ domain, topic }) => {
      const answer = await domainKnowledge(index, domain, topic);
      const outline = answer.documents
        .map((doc) => `- ${doc.path} — ${doc.title}: ${doc.sections.map((s) => s.heading).join('; ')}`)
        .join('\n');
      const text =
        answer.documents.length === 0
          ? `No document about "${domain}".`
          : `Documents about "${domain}":\n${outline}\n\n${formatHits(answer.passages, `No passage about "${topic}".`)}`;
      return { content: [{ type: 'text', text }], structuredContent: { ...answer } };
    },
  );
}
