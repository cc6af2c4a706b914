/** Text with one item per line → the non-empty, trimmed items. */
export function linesToList(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Items → text with one item per line. */
export function listToLines(items: readonly string[]): string {
  return items.join('\n');
}
