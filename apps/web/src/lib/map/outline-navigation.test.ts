import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { isTypeaheadKey, outlineMove, TypedLetters, typeaheadTarget } from './outline-navigation.ts';
import { visibleTree } from './visible-tree.ts';

const nodes = [
  aNode({ id: 'root' }),
  aNode({ id: 'a', parentId: 'root' }),
  aNode({ id: 'a1', parentId: 'a' }),
  aNode({ id: 'b', parentId: 'root', position: 1 }),
];

describe('outlineMove', () => {
  const open = visibleTree(nodes, new Set()).rows;

  it('should move up and down the shown rows and jump to the ends', () => {
    expect(outlineMove(open, new Set(), 'a', 'ArrowDown')).toEqual({ focus: 'a1' });
    expect(outlineMove(open, new Set(), 'a1', 'ArrowDown')).toEqual({ focus: 'b' });
    expect(outlineMove(open, new Set(), 'root', 'ArrowUp')).toBeNull();
    expect(outlineMove(open, new Set(), 'a1', 'Home')).toEqual({ focus: 'root' });
    expect(outlineMove(open, new Set(), 'root', 'End')).toEqual({ focus: 'b' });
    expect(outlineMove(open, new Set(), null, 'ArrowDown')).toEqual({ focus: 'root' });
  });

  it('should fold an open node with Left, then go to the parent', () => {
    expect(outlineMove(open, new Set(), 'a', 'ArrowLeft')).toEqual({ fold: 'a' });
    const folded = new Set(['a']);
    expect(outlineMove(visibleTree(nodes, folded).rows, folded, 'a', 'ArrowLeft')).toEqual({ focus: 'root' });
    expect(outlineMove(open, new Set(), 'a1', 'ArrowLeft')).toEqual({ focus: 'a' });
  });

  it('should unfold a folded node with Right, then go to its first child; a leaf goes nowhere', () => {
    const folded = new Set(['a']);
    expect(outlineMove(visibleTree(nodes, folded).rows, folded, 'a', 'ArrowRight')).toEqual({ unfold: 'a' });
    expect(outlineMove(open, new Set(), 'a', 'ArrowRight')).toEqual({ focus: 'a1' });
    expect(outlineMove(open, new Set(), 'b', 'ArrowRight')).toBeNull();
  });
});

describe('outlineMove by a screenful', () => {
  const many = [
    aNode({ id: 'r' }),
    ...Array.from({ length: 30 }, (_, i) => aNode({ id: `n${i}`, parentId: 'r', position: i })),
  ];
  const rows = visibleTree(many, new Set()).rows;

  it('should move down and up by the page size with Page Down and Page Up', () => {
    expect(outlineMove(rows, new Set(), 'r', 'PageDown', 10)).toEqual({ focus: 'n9' });
    expect(outlineMove(rows, new Set(), 'n9', 'PageDown', 10)).toEqual({ focus: 'n19' });
    expect(outlineMove(rows, new Set(), 'n19', 'PageUp', 10)).toEqual({ focus: 'n9' });
  });

  it('should stop at the first and last rows instead of going nowhere', () => {
    expect(outlineMove(rows, new Set(), 'n25', 'PageDown', 10)).toEqual({ focus: 'n29' });
    expect(outlineMove(rows, new Set(), 'n3', 'PageUp', 10)).toEqual({ focus: 'r' });
  });

  it('should move at least one row when the screen holds less than one', () => {
    expect(outlineMove(rows, new Set(), 'n3', 'PageDown', 0)).toEqual({ focus: 'n4' });
  });
});

describe('type-to-jump', () => {
  const named = [
    aNode({ id: 'root', question: 'Should I open a café?' }),
    aNode({ id: 'where', parentId: 'root', question: 'Where should it be?' }),
    aNode({ id: 'what', parentId: 'root', position: 1, question: 'What will it cost?' }),
    aNode({ id: 'who', parentId: 'root', position: 2, question: 'who will work there?' }),
    aNode({ id: 'zh', parentId: 'root', position: 3, question: '多少人经过？' }),
  ];
  const rows = visibleTree(named, new Set()).rows;

  it('should go to the next row starting with the typed letter, ignoring case, and round to the top', () => {
    expect(typeaheadTarget(rows, 'root', 'w')).toBe('where');
    expect(typeaheadTarget(rows, 'where', 'W')).toBe('what');
    expect(typeaheadTarget(rows, 'who', 's')).toBe('root');
  });

  it('should step through the rows starting with one letter typed again and again', () => {
    expect(typeaheadTarget(rows, 'what', 'ww')).toBe('who');
    expect(typeaheadTarget(rows, 'who', 'www')).toBe('where');
  });

  it('should narrow down with several letters from the current row itself', () => {
    expect(typeaheadTarget(rows, 'root', 'wha')).toBe('what');
    expect(typeaheadTarget(rows, 'what', 'what')).toBe('what');
    expect(typeaheadTarget(rows, 'where', 'who')).toBe('who');
    expect(typeaheadTarget(rows, 'root', '多')).toBe('zh');
  });

  it('should find nothing when no question starts with what was typed', () => {
    expect(typeaheadTarget(rows, 'root', 'x')).toBeNull();
    expect(typeaheadTarget([], null, 'w')).toBeNull();
  });

  it('should take printable characters only, not Space or shortcuts', () => {
    const key = (key: string, modifiers: Partial<KeyboardEvent> = {}) =>
      isTypeaheadKey({ key, ctrlKey: false, metaKey: false, altKey: false, ...modifiers });
    expect(key('a')).toBe(true);
    expect(key('多')).toBe(true);
    expect(key(' ')).toBe(false);
    expect(key('ArrowDown')).toBe(false);
    expect(key('z', { ctrlKey: true })).toBe(false);
  });

  it('should start a new word after a pause', () => {
    let now = 0;
    const typed = new TypedLetters(500, () => now);
    expect(typed.add('w')).toBe('w');
    now = 200;
    expect(typed.add('h')).toBe('wh');
    now = 800;
    expect(typed.add('s')).toBe('s');
  });
});
