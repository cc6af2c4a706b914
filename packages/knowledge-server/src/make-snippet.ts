import type { Passage } from './passage.ts';

/** Snippets stop growing past this many characters. */
export const MAX_SNIPPET_CHARS = 480;

/** A run of whole lines quoted from a passage. */
export interface Snippet {
  text: string;
  startLine: number;
  endLine: number;
}

/**
 * Quotes the lines of `passage` that best show why it matched: starting at the first line containing one
 * of `terms` (the heading line when that is the first) and growing in both directions, whole lines only,
 * until {@link MAX_SNIPPET_CHARS}. The line range is the snippet's own, so a reader can open the file at
 * exactly the quoted lines.
 */
export function makeSnippet(passage: Passage, terms: readonly string[]): Snippet {
  const lines = passage.text.split('\n');
  const lowered = lines.map((line) => line.toLowerCase());
  const hit = lowered.findIndex((line) => terms.some((term) => line.includes(term)));
  let first = Math.max(hit, 0);
  let last = first;
  let size = lines[first]!.length;
  while (size < MAX_SNIPPET_CHARS && (first > 0 || last < lines.length - 1)) {
    const next = last < lines.length - 1 ? lines[last + 1]! : undefined;
    if (next !== undefined && size + next.length <= MAX_SNIPPET_CHARS) {
      last += 1;
      size += next.length;
      continue;
    }
    const previous = first > 0 ? lines[first - 1]! : undefined;
    if (previous !== undefined && size + previous.length <= MAX_SNIPPET_CHARS) {
      first -= 1;
      size += previous.length;
      continue;
    }
    break;
  }
  while (last > first && lines[last]!.trim() === '') last -= 1;
  while (first < last && lines[first]!.trim() === '') first += 1;
  return {
    text: lines.slice(first, last + 1).join('\n'),
    startLine: passage.startLine + first,
    endLine: passage.startLine + last,
  };
}
