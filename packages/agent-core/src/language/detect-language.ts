import { Language } from '../domain/enums.ts';

const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /\p{Script=Latin}+/gu;

/**
 * Detects a map's language from its text: Chinese when Han characters make up at least a fifth of the text,
 * counting each Han character against each Latin word (a Han character carries about as much as a word),
 * else English. So Chinese with English names and acronyms stays Chinese, and an English sentence with one
 * Chinese word stays English. Text with neither (empty, digits, emoji) is English.
 *
 * The one detector: the server's `createMap` and the problem-understanding agent both call it.
 */
export function detectLanguage(text: string): Language {
  const han = text.match(HAN)?.length ?? 0;
  if (han === 0) return Language.en;
  const latinWords = text.match(LATIN_WORD)?.length ?? 0;
  return han / (han + latinWords) >= 0.2 ? Language.zh : Language.en;
}
