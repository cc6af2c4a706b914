/** How wide a character is in "units" (a Latin letter is 1, a CJK or full-width character is 2). */
export function charUnits(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x1100 &&
    (code <= 0x115f ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      code >= 0x20000)
    ? 2
    : 1;
}

/**
 * Wraps text into at most `maxLines` lines of at most `maxUnits` units each (SVG text does not wrap by
 * itself), breaking Latin text at spaces and CJK text anywhere; an ellipsis marks what was cut.
 */
export function wrapLabel(text: string, maxUnits: number, maxLines: number): string[] {
  const words =
    text
      .replace(/\s+/g, ' ')
      .trim()
      .match(
        /[\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uffe6]|[^\s\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uffe6]+|\s/g,
      ) ?? [];
  const lines: string[] = [];
  let line = '';
  let units = 0;
  const push = () => {
    lines.push(line.trimEnd());
    line = '';
    units = 0;
  };
  for (const word of words) {
    const width = [...word].reduce((sum, c) => sum + charUnits(c), 0);
    if (word === ' ' && units === 0) continue;
    if (units + width > maxUnits && units > 0) push();
    if (width > maxUnits) {
      for (const char of word) {
        if (units + charUnits(char) > maxUnits) push();
        line += char;
        units += charUnits(char);
      }
    } else {
      line += word;
      units += width;
    }
  }
  if (line.trim()) push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1]!;
  while (last.length && [...last].reduce((sum, c) => sum + charUnits(c), 0) > maxUnits - 1)
    last = [...last].slice(0, -1).join('');
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}
