import hljs from 'highlight.js/lib/common';
import 'highlight.js/styles/github.css';

/**
 * Highlights every fenced code block under `root` whose language highlight.js knows (the common set: about
 * 35 languages); an unknown language stays plain text. Loaded on demand by the Markdown view, so pages without
 * code never download it.
 */
export function highlightCode(root: HTMLElement): void {
  for (const code of root.querySelectorAll<HTMLElement>('pre code[class*="language-"]')) {
    if (code.dataset.highlighted) continue;
    const language = /language-([\w+#-]+)/.exec(code.className)?.[1];
    if (language && hljs.getLanguage(language)) hljs.highlightElement(code);
  }
}
