import type { Language } from '../domain/enums.ts';

const HAN = /\p{Script=Han}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * Detects a map's language from its problem text: Chinese when Han characters make up at least a fifth of
 * the letters (Chinese problems often carry English names and acronyms), else English. Empty text is English.
 */
export function detectLanguage(text: string): Language {
  let han = 0;
  let latin = 0;
  for (const char of text) {
    if (HAN.test(char)) han += 1;
    else if (LATIN.test(char)) latin += 1;
  }
  if (han === 0) return 'en';
  // A Han character carries about as much as a Latin word; weigh words, not letters.
  const latinWords = latin / 5;
  return han / (han + latinWords) >= 0.2 ? 'zh' : 'en';
}
