import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// agent-core exports only its package index, which does not re-export `knowledge/` yet; switch to
// `@thinkingmap/agent-core` once it does.
import { createMcpKnowledge } from '../../agent-core/src/knowledge/index.ts';
import { defaultKnowledgeFolder } from './default-folder.ts';
import { fileLines } from './testing/file-lines.ts';

const EXAMPLE_CONFIG = fileURLToPath(new URL('../mcp-servers.example.json', import.meta.url));

describe("agent-core's MCP knowledge port over this server", () => {
  it('should start the server from the example config and return Chinese passages with their file and lines', async () => {
    const knowledge = await createMcpKnowledge(EXAMPLE_CONFIG);
    try {
      expect(knowledge.status).toEqual([
        { name: 'knowledge', state: 'ready', tools: ['knowledge_search', 'domain_knowledge'] },
      ]);
      const [best] = await knowledge.port.search('北极星指标', { context: '产品规划', maxResults: 3 });
      const source = best!.sources[0]!;
      expect(source).toMatchObject({ server: 'knowledge', path: 'product-planning.md' });
      expect(best!.content).toContain('北极星指标');
      expect(best!.content).toBe(fileLines(defaultKnowledgeFolder(), source.path!, source.startLine!, source.endLine!));
    } finally {
      await knowledge.close();
    }
  });
});
