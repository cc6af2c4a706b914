import { describe, expect, it } from 'vitest';
import { codeLanguages, markdownToHtml } from './markdown.ts';

describe('markdownToHtml', () => {
  it('should render headings, lists, emphasis and tables', () => {
    const html = markdownToHtml(
      '# Tea shop\n\n- **online** first\n- *then* a stall\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Tea shop</h1>');
    expect(html).toContain('<strong>online</strong>');
    expect(html).toContain('<em>then</em>');
    expect(html).toContain('<table>');
  });

  it('should show HTML in a note as text, never as markup', () => {
    const html = markdownToHtml('Hello <script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });

  it('should keep safe links and drop script links to their text', () => {
    const html = markdownToHtml('[site](https://example.com) and [bad](javascript:alert(1))');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">site</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('bad');
  });

  it('should not load images, showing their description', () => {
    const html = markdownToHtml('![the shop front](http://tracker.example/p.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('the shop front');
  });

  it('should keep fenced code with its language for the highlighter', () => {
    const text = '# Title\n\n```python\nprint("<b>")\n```\n';
    const html = markdownToHtml(text);
    expect(html).toContain('<code class="language-python">');
    expect(html).toContain('&lt;b&gt;');
    expect(codeLanguages(text)).toEqual(['python']);
  });
});
