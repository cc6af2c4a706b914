import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenize.ts';

describe('tokenize', () => {
  it('should cut Chinese text into dictionary words instead of one run of characters', () => {
    expect(tokenize('如何做好产品规划')).toEqual(expect.arrayContaining(['如何', '产品', '规划']));
  });

  it('should lower-case English words and drop punctuation', () => {
    expect(tokenize('Pre-mortem, Decision MATRIX!')).toEqual(['pre', 'mortem', 'decision', 'matrix']);
  });

  it('should add two-character pieces of longer Chinese words so differently segmented queries still meet', () => {
    const tokens = tokenize('北极星指标');
    expect(tokens).toEqual(expect.arrayContaining(['指标']));
    for (const token of tokens) expect(token.length).toBeGreaterThan(0);
  });
});
