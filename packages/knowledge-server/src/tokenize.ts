/**
 * Word segmentation for mixed Chinese and English text, shared by indexing and querying so both sides cut
 * text the same way. `Intl.Segmenter` with `granularity: 'word'` uses ICU's dictionary for Han script, so
 * "产品规划" becomes "产品" + "规划" instead of one unsearchable run of characters; Latin words are split on
 * spaces and punctuation as usual.
 */

const segmenter = new Intl.Segmenter(['zh', 'en'], { granularity: 'word' });

const HAN = /\p{Script=Han}/u;

/** Whether `token` contains Chinese (Han) characters. */
export function isHanToken(token: string): boolean {
  return HAN.test(token);
}

/**
 * Splits `text` into lower-cased, word-like tokens (punctuation and spaces dropped). Han words longer than
 * two characters also yield their two-character pieces, so a query segmented slightly differently from the
 * document (ICU is context sensitive) still meets it on the shared bigrams.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const part of segmenter.segment(text.normalize('NFKC'))) {
    if (!part.isWordLike) continue;
    const word = part.segment.toLowerCase();
    tokens.push(word);
    if (word.length > 2 && isHanToken(word)) {
      for (let i = 0; i + 2 <= word.length; i += 1) tokens.push(word.slice(i, i + 2));
    }
  }
  return tokens;
}
