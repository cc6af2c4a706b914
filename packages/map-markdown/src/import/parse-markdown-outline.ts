import { marked, type Token, type Tokens } from 'marked';
import { type ImportedMap, type ImportedNode, MapImportError, outlineMap, outlineNode } from './imported-map.ts';

const isList = (token: Token): token is Tokens.List => token.type === 'list';
const isHeading = (token: Token): token is Tokens.Heading => token.type === 'heading';

/** The plain text of inline tokens: emphasis, links and code keep their words, the markup goes. */
function plainText(tokens: readonly Token[] | undefined, fallback: string): string {
  if (!tokens) return fallback.trim();
  const words = (list: readonly Token[]): string =>
    list
      .map((token) => {
        if ('tokens' in token && token.tokens) return words(token.tokens);
        if (token.type === 'br') return ' ';
        return 'text' in token ? String(token.text) : '';
      })
      .join('');
  return words(tokens).replace(/\s+/g, ' ').trim();
}

/** Numbers nodes `n1`, `n2`, … in reading order and says on which line each began. */
class Outline {
  private count = 0;
  constructor(private readonly content: string) {}
  lineAt(offset: number): number {
    let line = 1;
    for (let i = 0; i < offset && i < this.content.length; i++) if (this.content.charCodeAt(i) === 10) line++;
    return line;
  }
  node(question: string, offset: number): ImportedNode {
    const where = `line ${this.lineAt(offset)}`;
    if (!question) throw new MapImportError(where, 'a heading or list item has no text');
    this.count++;
    return outlineNode(`n${this.count}`, question, where, []);
  }
}

/** A list's items as nodes (nested lists as their children), `offset` being where the list begins. */
function listNodes(outline: Outline, list: Tokens.List, content: string, offset: number): ImportedNode[] {
  const nodes: ImportedNode[] = [];
  let cursor = offset;
  for (const item of list.items) {
    const at = content.indexOf(item.raw, cursor);
    const start = at >= 0 ? at : cursor;
    cursor = start + item.raw.length;
    const own = item.tokens.filter((token) => !isList(token));
    const first = own[0];
    const question = plainText(first && 'tokens' in first ? first.tokens : undefined, first?.raw ?? item.text);
    const node = outline.node(question, start);
    const rest = own
      .slice(1)
      .map((token) => token.raw.trim())
      .filter(Boolean);
    if (rest.length) node.context.push({ title: '', content: rest.join('\n\n') });
    for (const token of item.tokens) {
      if (!isList(token)) continue;
      const nested = content.indexOf(token.raw, start);
      node.children.push(...listNodes(outline, token, content, nested >= 0 ? nested : start));
    }
    nodes.push(node);
  }
  return nodes;
}

/**
 * Reads a Markdown outline with marked's lexer: headings nest by level, a list's items (nested lists included)
 * hang under the heading above them, and other text under a heading (paragraphs, quotes, code) is kept as that
 * node's context, word for word. Text before the first heading is the map's problem. Refused: a document with no
 * heading or list item, and a heading or item without text (named by its line).
 */
export function parseMarkdownOutline(content: string): ImportedMap {
  const outline = new Outline(content);
  const tokens = marked.lexer(content);
  const tree: ImportedNode[] = [];
  /** The open headings, outermost first. */
  const open: { depth: number; node: ImportedNode }[] = [];
  const problem: string[] = [];
  let offset = 0;
  for (const token of tokens) {
    const at = content.indexOf(token.raw, offset);
    const start = at >= 0 ? at : offset;
    offset = start + token.raw.length;
    const parent = open.at(-1)?.node;
    if (isHeading(token)) {
      const heading = token;
      const node = outline.node(plainText(heading.tokens, heading.text), start);
      while (open.length && open.at(-1)!.depth >= heading.depth) open.pop();
      (open.at(-1)?.node.children ?? tree).push(node);
      open.push({ depth: heading.depth, node });
    } else if (isList(token)) {
      (parent?.children ?? tree).push(...listNodes(outline, token, content, start));
    } else if (token.type !== 'space' && token.type !== 'hr' && token.raw.trim()) {
      if (parent) parent.context.push({ title: '', content: token.raw.trim() });
      else problem.push(token.raw.trim());
    }
  }
  if (!tree.length) throw new MapImportError('line 1', 'the Markdown has no heading or list item to make a node of');
  // One heading at the top names the map.
  const title = tree.length === 1 ? tree[0]!.question : null;
  return outlineMap(title, tree, problem.join('\n\n'));
}
