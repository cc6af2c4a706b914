import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import type { SearchHit } from '../search-hit.ts';
import { fileLines } from './file-lines.ts';

async function search(client: Client, query: string): Promise<SearchHit[]> {
  const result = await client.callTool({ name: 'knowledge_search', arguments: { query, max_results: 3 } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: SearchHit[] }).results;
}

/**
 * Asserts, through a connected MCP client, that the knowledge tools are listed and that a Chinese and an
 * English query each find their passage with a path and line range that quote the file exactly.
 */
export async function expectBilingualRetrieval(client: Client, folder: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['domain_knowledge', 'knowledge_search']);

  const [zh] = await search(client, '费曼学习法');
  expect(zh).toMatchObject({ path: 'learning-methods.md', headings: ['高效学习方法', '费曼学习法'] });
  expect(zh!.snippet).toBe(fileLines(folder, zh!.path, zh!.startLine, zh!.endLine));

  const [en] = await search(client, 'weighted decision matrix');
  expect(en).toMatchObject({ path: 'decision-making.md' });
  expect(en!.snippet).toBe(fileLines(folder, en!.path, en!.startLine, en!.endLine));

  const text = await client.callTool({ name: 'knowledge_search', arguments: { query: '费曼学习法' } });
  expect((text.content as { type: string; text: string }[])[0]!.text).toMatch(/^\[1\] learning-methods\.md:\d+-\d+ — /);
}
