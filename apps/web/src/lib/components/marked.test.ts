// @vitest-environment jsdom
import { flushSync, mount, unmount } from 'svelte';
import { describe, expect, it } from 'vitest';
import Marked from './Marked.svelte';

describe('Marked', () => {
  it('should mark the search words and leave the text exactly as it was', () => {
    const target = document.createElement('div');
    const component = mount(Marked, { target, props: { text: 'Rent near the station, rent later', terms: ['rent'] } });
    flushSync();
    expect(target.textContent).toBe('Rent near the station, rent later');
    expect([...target.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Rent', 'rent']);
    void unmount(component);
  });
});
