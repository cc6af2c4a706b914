import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../api/request.ts';
import { FieldDraft } from './field-draft.svelte.ts';
import { linesToList, listToLines } from './lines.ts';

const conflict = (expected: number, current: number): ApiResult<unknown> => ({
  ok: false,
  error: {
    __typename: 'VersionConflictError',
    code: 'VERSION_CONFLICT',
    message: 'stale',
    expectedVersion: expected,
    currentVersion: current,
  },
});

describe('FieldDraft', () => {
  it('should save the edit based on the version it started from', async () => {
    const save = vi.fn(async () => ({ ok: true, value: {} }) as ApiResult<unknown>);
    const draft = new FieldDraft(save);
    draft.begin('old', 4);
    draft.text = 'new';
    expect(await draft.commit()).toBe(true);
    expect(save).toHaveBeenCalledWith('new', 4);
    expect(draft.editing).toBe(false);
  });

  it('should keep the typed text and record the conflict when the edit is stale', async () => {
    const draft = new FieldDraft(async () => conflict(4, 6));
    draft.begin('old', 4);
    draft.text = 'my careful rewrite';
    expect(await draft.commit()).toBe(false);
    expect(draft.editing).toBe(true);
    expect(draft.text).toBe('my careful rewrite');
    expect(draft.conflict).toEqual({ expectedVersion: 4, currentVersion: 6 });
  });

  it('should overwrite from the current version when the person chooses their text', async () => {
    const save = vi.fn(async (_text: string, base: number) =>
      base === 6 ? ({ ok: true, value: {} } as ApiResult<unknown>) : conflict(base, 6),
    );
    const draft = new FieldDraft(save);
    draft.begin('old', 4);
    draft.text = 'mine';
    await draft.commit();
    expect(await draft.overwrite(6)).toBe(true);
    expect(save).toHaveBeenLastCalledWith('mine', 6);
    expect(draft.conflict).toBeNull();
  });

  it('should show other refusals as an error, still keeping the text', async () => {
    const draft = new FieldDraft(async () => ({
      ok: false,
      error: {
        __typename: 'ValidationError',
        code: 'INVALID',
        message: 'question: too long',
        field: 'question',
        reason: 'too long',
      },
    }));
    draft.begin('', 1);
    draft.text = 'x'.repeat(10);
    await draft.commit();
    expect(draft.error).toBe('question: too long');
    expect(draft.text).toBe('x'.repeat(10));
  });
});

describe('lines', () => {
  it('should turn lines into trimmed items and back', () => {
    expect(linesToList(' a \n\n b\n')).toEqual(['a', 'b']);
    expect(listToLines(['a', 'b'])).toBe('a\nb');
  });
});
