import { describe, expect, it } from 'vitest';
import { networkError } from './api-error.ts';
import { Connectivity } from './connectivity.svelte.ts';
import { ShownError } from './shown-error.svelte.ts';

describe('ShownError', () => {
  it('should clear a network error by itself once the connection is back', () => {
    const link = new Connectivity();
    const shown = new ShownError(link);
    link.lost();
    shown.set(networkError('[Network] Failed to fetch'));
    expect(shown.network).toBe(true);
    link.restored();
    expect(shown.current).toBeNull();
  });

  it('should keep any other error until it is replaced', () => {
    const link = new Connectivity();
    const shown = new ShownError(link);
    shown.set('the title must not be empty');
    link.restored();
    expect(shown.current).toBe('the title must not be empty');
    shown.set(null);
    expect(shown.current).toBeNull();
  });
});
