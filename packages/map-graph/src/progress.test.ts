import { describe, expect, it } from 'vitest';
import { progressOf } from './progress.ts';

describe('progressOf', () => {
  it('should count a concluded node whose conclusion is out of date as open', () => {
    expect(
      progressOf([
        { status: 'COMPLETED', staleReason: null },
        { status: 'COMPLETED', staleReason: 'CHILD_ADDED' },
        { status: 'WAITING', staleReason: 'DEPENDENCY_CHANGED' },
        { status: 'READY' },
      ]),
    ).toEqual({ total: 4, concluded: 1, open: 3, stale: 2 });
  });

  it('should count an empty map as nothing done and nothing open', () => {
    expect(progressOf([])).toEqual({ total: 0, concluded: 0, open: 0, stale: 0 });
  });
});
