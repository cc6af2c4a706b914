import type { Language } from '../api/results.ts';

/** Picks the interface language from the browser's preferred languages: Chinese for any `zh*`, else English. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}
