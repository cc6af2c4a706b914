import { describe, expect, it } from 'vitest';
import { chunkDocument, MAX_PASSAGE_CHARS } from './chunk-document.ts';

const DOC = [
  '---',
  'title: 样例',
  'domains: [测试, testing]',
  '---',
  '',
  '# Top',
  '',
  'Intro line.',
  '',
  '## Part A',
  'a1',
  'a2',
  '',
  '```',
  '# not a heading',
  '```',
  '',
  '## Part B',
  'b1',
  '',
].join('\n');

describe('chunkDocument', () => {
  it('should start a passage at every heading with exact 1-based line ranges', () => {
    const passages = chunkDocument('docs/sample.md', DOC);
    expect(passages.map((p) => [p.startLine, p.endLine, p.headings])).toEqual([
      [6, 8, ['Top']],
      [10, 16, ['Top', 'Part A']],
      [18, 19, ['Top', 'Part B']],
    ]);
  });

  it('should keep the lines of a passage exactly as they are in the file', () => {
    const lines = DOC.split('\n');
    for (const passage of chunkDocument('docs/sample.md', DOC)) {
      expect(passage.text).toBe(lines.slice(passage.startLine - 1, passage.endLine).join('\n'));
    }
  });

  it('should take the title and domains from the front matter', () => {
    const [first] = chunkDocument('docs/sample.md', DOC);
    expect(first).toMatchObject({ title: '样例', domains: ['测试', 'testing'], id: 'docs/sample.md#6' });
  });

  it('should fall back to the file name as title for plain text', () => {
    expect(chunkDocument('notes/plain-notes.txt', 'just text')[0]?.title).toBe('plain-notes');
  });

  it('should split a long section between paragraphs, never inside one', () => {
    const paragraph = 'word '.repeat(60).trim();
    const text = Array.from({ length: 6 }, () => paragraph).join('\n\n');
    const passages = chunkDocument('long.txt', text);
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) {
      expect(passage.text.length).toBeLessThan(MAX_PASSAGE_CHARS + paragraph.length * 2);
      expect(passage.text.startsWith('word')).toBe(true);
    }
    expect(passages.at(-1)?.endLine).toBe(11);
  });
});
