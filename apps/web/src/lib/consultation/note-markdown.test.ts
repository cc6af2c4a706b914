import { describe, expect, it } from 'vitest';
import { renderNoteMarkdown } from './note-markdown.ts';

describe('renderNoteMarkdown', () => {
  it('should render headings, lists, emphasis and tables', () => {
    const html = renderNoteMarkdown(
      '# Tea shop\n\n- **online** first\n- *then* a stall\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Tea shop</h1>');
    expect(html).toContain('<strong>online</strong>');
    expect(html).toContain('<em>then</em>');
    expect(html).toContain('<table>');
  });

  it('should show HTML in a note as text, never as markup', () => {
    const html = renderNoteMarkdown('Hello <script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });

  it('should keep safe links and drop script links to their text', () => {
    const html = renderNoteMarkdown('[site](https://example.com) and [bad](javascript:alert(1))');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">site</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('bad');
  });

  it('should not load images, showing their description', () => {
    const html = renderNoteMarkdown('![the shop front](http://tracker.example/p.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('the shop front');
  });
});
