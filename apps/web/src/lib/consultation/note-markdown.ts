import { Marked, type Tokens } from 'marked';

/** Link targets a note may point to: web pages, mail, and places on this page or this site. */
const SAFE_HREF = /^(https?:|mailto:|#|\/(?!\/))/i;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Markdown for consultation notes (written by the planner, so not trusted): GitHub-flavoured Markdown where any
 * HTML in the text is shown as text, images as their description, and links only to safe targets.
 */
const notes = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: ({ text }: Tokens.Image) => escapeHtml(text),
    link(token: Tokens.Link) {
      const inner = this.parser.parseInline(token.tokens);
      if (!SAFE_HREF.test(token.href.trim())) return inner;
      return `<a href="${escapeHtml(token.href)}" rel="noopener noreferrer nofollow" target="_blank">${inner}</a>`;
    },
  },
});

/** The HTML of a note's Markdown, safe to put in the page. */
export function renderNoteMarkdown(markdown: string): string {
  return notes.parse(markdown, { async: false });
}
