import { describe, expect, it } from 'vitest';
import { detailLevel, touchTargetScale } from './level-of-detail.ts';

describe('level of detail', () => {
  it('should show everything from 0.6, the question alone from 0.3 and a coloured block below', () => {
    expect(detailLevel(1)).toBe('full');
    expect(detailLevel(0.6)).toBe('full');
    expect(detailLevel(0.59)).toBe('compact');
    expect(detailLevel(0.3)).toBe('compact');
    expect(detailLevel(0.29)).toBe('overview');
  });

  it('should size touch targets for the zoom rounded down to a tenth, never below the full-detail zoom', () => {
    expect(touchTargetScale(1)).toBe(1);
    expect(touchTargetScale(0.7)).toBe(0.7);
    expect(touchTargetScale(0.79)).toBe(0.7);
    expect(touchTargetScale(2.5)).toBe(2.5);
    expect(touchTargetScale(0.61)).toBe(0.6);
    expect(touchTargetScale(0.2)).toBe(0.6);
  });
});
