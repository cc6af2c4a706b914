import { describe, expect, it } from 'vitest';
import { isAgentError } from '../../errors/agent-error.ts';
import { normalizeNotePath } from './note-path.ts';

const refusal = (path: string) => {
  try {
    normalizeNotePath(path);
  } catch (error) {
    if (isAgentError(error, 'INVALID_INPUT')) return error.message;
    throw error;
  }
  throw new Error(`${path} was accepted`);
};

describe('note paths', () => {
  it('should normalise a relative path and add .md when the name has no extension', () => {
    expect(normalizeNotePath('shop/overview')).toBe('shop/overview.md');
    expect(normalizeNotePath('./shop//plan.md')).toBe('shop/plan.md');
    expect(normalizeNotePath('笔记\\方案.md')).toBe('笔记/方案.md');
  });

  it('should refuse traversal, absolute paths and reserved names', () => {
    expect(refusal('../secret.md')).toMatch(/leaves the notes folder/);
    expect(refusal('a/../../b.md')).toMatch(/leaves the notes folder/);
    expect(refusal('..\\b.md')).toMatch(/leaves the notes folder/);
    expect(refusal('/etc/passwd')).toMatch(/absolute/);
    expect(refusal('\\\\server\\share.md')).toMatch(/absolute/);
    expect(refusal('C:\\notes.md')).toMatch(/absolute/);
    expect(refusal('a\u0000b.md')).toMatch(/reserved or control/);
    expect(refusal('   ')).toMatch(/empty/);
    expect(refusal('a/b/c/d/e/f/g/h.md')).toMatch(/too deep/);
  });
});
