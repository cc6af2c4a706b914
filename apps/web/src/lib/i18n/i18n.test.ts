import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { I18n } from './i18n.svelte.ts';
import { MESSAGES } from './messages.ts';
import { pickLanguage } from './pick-language.ts';
import { translate } from './translate.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('interface language', () => {
  it('should default to the browser language: Chinese for any zh tag, English otherwise', () => {
    expect(pickLanguage(['zh-TW', 'en'])).toBe('zh');
    expect(pickLanguage(['en-GB', 'zh-CN'])).toBe('en');
    expect(pickLanguage(['fr-FR', 'zh'])).toBe('zh');
    expect(pickLanguage(['fr-FR'])).toBe('en');
  });

  it('should remember a chosen language over the browser default', () => {
    const storage = memoryStorage();
    new I18n(storage, ['en-US']).setLanguage('zh');
    expect(new I18n(storage, ['en-US']).language).toBe('zh');
  });

  it('should fill placeholders and leave unknown ones visible', () => {
    expect(translate('en', 'maps.nodes', { count: 3 })).toBe('3 nodes');
    expect(translate('zh', 'maps.nodes', { count: 3 })).toBe('3 个节点');
    expect(translate('en', 'maps.nodes')).toBe('{count} nodes');
    expect(translate('en', 'maps.nodes', { count: 1 })).toBe('1 node');
  });

  it('should have every message in both languages with the same placeholders', () => {
    for (const [key, { en, zh }] of Object.entries(MESSAGES)) {
      expect(en.trim(), key).not.toBe('');
      expect(zh.trim(), key).not.toBe('');
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(zh), key).toEqual(names(en));
    }
  });

  it('should punctuate Chinese the Chinese way and keep Chinese punctuation out of English', () => {
    for (const [key, { en, zh }] of Object.entries(MESSAGES)) {
      // A colon, comma or stop after a Chinese character is full-width; quotes are curly.
      expect(zh, key).not.toMatch(/[\u3400-\u9fff][:,;.!?]/);
      expect(zh, key).not.toContain('"');
      expect(en, key).not.toMatch(/[：，。、（）；！？]/);
    }
  });

  it('should leave no hard-coded colon after a translated label in the components', () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../..');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.svelte'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(join(src, file), 'utf8');
      expect(text, file).not.toMatch(/i18n\.t\([^)]*\)\}\s*:/);
      expect(text, file).not.toMatch(/\$\{i18n\.t\([^)]*\)\}:/);
    }
  });
});
