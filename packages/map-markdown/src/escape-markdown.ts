// Characters with an inline meaning: emphasis, code, links and images, HTML and autolinks, entities, headings,
// tables, strikethrough. Each is backslash-escaped (CommonMark renders `\x` as `x` for ASCII punctuation).
const INLINE = /[\\`*_[\]<>&#|~]/g;
// Line starts that open a block: list items (`-`, `+`, `1.`, `1)`) and setext underlines (`=`, `-`).
const LIST_OR_SETEXT = /^([-+=])/;
const ORDERED = /^(\d{1,9})([.)])/;

/**
 * Escapes text for one line of Markdown: line breaks and runs of white space become one space, and every
 * character with a Markdown meaning is escaped. A person's `# Root` or `**x**` shows as written and cannot
 * open a heading, a list or a link in the rendered map.
 */
export function escapeInline(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(INLINE, '\\$&');
}

/**
 * Escapes text that keeps its lines (a problem, a conclusion): each line is escaped as in {@link escapeInline}
 * and loses its leading white space (which would open a code block), and a line that would start a list or
 * underline a heading is escaped too. Returns the lines, for the caller to indent or quote.
 */
export function escapeLines(text: string): string[] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/[ \t]+/g, ' ')
        .replace(INLINE, '\\$&')
        .replace(LIST_OR_SETEXT, '\\$1')
        .replace(ORDERED, '$1\\$2'),
    );
}
