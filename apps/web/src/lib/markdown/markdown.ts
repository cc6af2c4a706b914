import { Marked, type Tokens } from 'marked';

/** Link targets a note may point to: web pages, mail, and places on this page or this site. */
const SAFE_HREF = /^(https?:|mailto:|#|\/(?!\/))/i;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The one Markdown renderer of the web app (consultation notes, divergent documents and task results — all written
 * by a model, so not trusted): GitHub-flavoured Markdown where any HTML in the text is shown as text, images as
 * their description, and links only to safe targets. Fenced code keeps its `language-…` class for the highlighter.
 */
const markdown = new Marked({
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

/** The HTML of a Markdown text, safe to put in the page. */
export function markdownToHtml(text: string): string {
  return markdown.parse(text, { async: false });
}

/** The languages of the fenced code blocks of a Markdown text, in order (e.g. `python`). */
export function codeLanguages(text: string): string[] {
  return [...text.matchAll(/^ {0,3}(?:```|~~~)\s*([\w+#-]+)/gm)].map((m) => m[1] ?? '');
}
