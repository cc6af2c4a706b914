import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown as safe HTML: rendered by marked, then sanitised by DOMPurify (no script, no event handler). */
export function markdownToHtml(text: string): string {
  return DOMPurify.sanitize(marked.parse(text, { async: false }));
}

/** The languages of the fenced code blocks of a Markdown text, in order (e.g. `python`). */
export function codeLanguages(text: string): string[] {
  return [...text.matchAll(/^ {0,3}(?:```|~~~)\s*([\w+#-]+)/gm)].map((m) => m[1] ?? '');
}
