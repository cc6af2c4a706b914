import { describe, expect, it } from 'vitest';
import { defaultKnowledgeFolder } from './default-folder.ts';
import { domainKnowledge } from './domain-knowledge.ts';
import { KnowledgeIndex } from './knowledge-index.ts';
import { fileLines } from './testing/file-lines.ts';

const index = new KnowledgeIndex(defaultKnowledgeFolder());

describe('domainKnowledge', () => {
  it('should find the documents that declare the domain, in Chinese or English, with their outline', async () => {
    const answer = await domainKnowledge(index, '决策');
    expect(answer.documents.map((doc) => doc.path)).toEqual(['decision-making.md']);
    expect(answer.documents[0]!.sections.map((s) => s.heading)).toContain('Decision Making › Pre-mortem');
    const opening = answer.passages[0]!;
    expect(opening.path).toBe('decision-making.md');
    expect(fileLines(defaultKnowledgeFolder(), opening.path, opening.startLine, opening.startLine)).toBe(
      '# Decision Making',
    );
  });

  it('should answer a topic with passages from the domain documents only', async () => {
    const answer = await domainKnowledge(index, 'learning', '间隔重复');
    expect(answer.passages.length).toBeGreaterThan(0);
    expect(answer.passages.every((hit) => hit.path === 'learning-methods.md')).toBe(true);
    expect(answer.passages[0]!.headings.at(-1)).toBe('间隔重复与主动回忆');
  });

  it('should fall back to full-text matches when no document declares the domain', async () => {
    const answer = await domainKnowledge(index, 'sampling');
    expect(answer.documents.map((doc) => doc.path)).toEqual(['research-design.md']);
  });

  it('should answer with no documents for an unknown domain', async () => {
    expect((await domainKnowledge(index, 'astrophysics')).documents).toEqual([]);
  });
});
