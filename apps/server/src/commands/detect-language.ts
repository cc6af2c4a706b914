/**
 * Detects whether a text is Chinese or English: Chinese when at least a fifth of its letters are CJK
 * ideographs (Chinese problems often mix in English product names).
 */
export function detectLanguage(text: string): 'zh' | 'en' {
  const cjk = text.match(/[\u3400-\u9fff\uf900-\ufaff]/g)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  if (cjk === 0) return 'en';
  return cjk * 5 >= cjk + latin / 4 ? 'zh' : 'en';
}
