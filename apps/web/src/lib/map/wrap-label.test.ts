import { describe, expect, it } from 'vitest';
import { charUnits, wrapLabel } from './wrap-label.ts';

describe('wrapLabel', () => {
  it('should break Latin text at spaces', () => {
    expect(wrapLabel('Is there enough demand for coffee here?', 20, 3)).toEqual([
      'Is there enough',
      'demand for coffee',
      'here?',
    ]);
  });

  it('should count CJK characters as two units and break anywhere', () => {
    expect(charUnits('中')).toBe(2);
    expect(charUnits('a')).toBe(1);
    expect(wrapLabel('我应该在我家附近开一家咖啡店吗', 10, 3)).toEqual(['我应该在我', '家附近开一', '家咖啡店吗']);
  });

  it('should cut with an ellipsis when there are more lines than allowed', () => {
    const lines = wrapLabel('one two three four five six seven eight nine ten', 10, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect([...lines[1]!].length).toBeLessThanOrEqual(10);
  });

  it('should split a word longer than a line', () => {
    expect(wrapLabel('abcdefghijkl', 5, 3)).toEqual(['abcde', 'fghij', 'kl']);
  });

  it('should give no lines for empty text', () => {
    expect(wrapLabel('   ', 10, 2)).toEqual([]);
  });
});
