import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeIndex } from './knowledge-index.ts';
import { fileLines } from './testing/file-lines.ts';
import { copyKnowledgeFolder } from './testing/temp-knowledge-folder.ts';

let folder: string;
let remove: () => Promise<void>;
let index: KnowledgeIndex;

beforeEach(async () => {
  ({ folder, remove } = await copyKnowledgeFolder());
  index = new KnowledgeIndex(folder);
});
afterEach(() => remove());

describe('KnowledgeIndex', () => {
  it('should find the Chinese passage for a Chinese query, quoting the exact lines of the file', async () => {
    const [hit] = await index.search('如何确定路线图的优先级');
    expect(hit).toMatchObject({ path: 'product-planning.md', headings: ['产品规划方法', '路线图与优先级'], score: 1 });
    expect(hit!.snippet).toContain('RICE');
    expect(hit!.snippet).toBe(fileLines(folder, hit!.path, hit!.startLine, hit!.endLine));
  });

  it('should find the English passage for an English query, quoting the exact lines of the file', async () => {
    const [hit] = await index.search('pre-mortem risks', { maxResults: 3 });
    expect(hit).toMatchObject({ path: 'decision-making.md', headings: ['Decision Making', 'Pre-mortem'] });
    expect(hit!.snippet).toBe(fileLines(folder, hit!.path, hit!.startLine, hit!.endLine));
  });

  it('should search plain text files as well as Markdown', async () => {
    const [hit] = await index.search('MECE 相互独立');
    expect(hit?.path).toBe('problem-decomposition.txt');
  });

  it('should return no hit rather than noise when nothing matches', async () => {
    expect(await index.search('kubernetes')).toEqual([]);
  });

  it('should return at most max results, best first', async () => {
    const hits = await index.search('decision 决策 learning 学习 research', { maxResults: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
  });

  it('should re-index a changed file on the next search', async () => {
    expect(await index.search('苔藓培养')).toEqual([]);
    await writeFile(join(folder, 'learning-methods.md'), '# 新内容\n\n苔藓培养需要保持湿润。\n');
    const [hit] = await index.search('苔藓培养');
    expect(hit).toMatchObject({ path: 'learning-methods.md', startLine: 1, endLine: 3 });
    expect(await index.search('费曼学习法')).toEqual([]);
  });

  it('should index new files and forget deleted ones', async () => {
    await writeFile(join(folder, 'new-note.txt'), 'Quorum sensing in bacteria.');
    expect((await index.search('quorum'))[0]?.path).toBe('new-note.txt');
    await rm(join(folder, 'new-note.txt'));
    expect(await index.search('quorum')).toEqual([]);
  });

  it('should let the context re-rank hits without adding hits of its own', async () => {
    const plain = await index.search('interviews', { maxResults: 5 });
    const ranked = await index.search('interviews', { maxResults: 5, context: '产品 用户访谈 痛点' });
    expect(new Set(ranked.map((hit) => hit.path))).toEqual(new Set(plain.map((hit) => hit.path)));
    expect(await index.search('interviews', { context: 'kubernetes' })).toHaveLength(plain.length);
  });
});
