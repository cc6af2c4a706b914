import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { type ImportedMap, type ImportedNode, MapImportError, outlineMap, outlineNode } from './imported-map.ts';

const outline = z.looseObject({
  text: z.string().optional(),
  title: z.string().optional(),
  _note: z.string().optional(),
  outline: z.array(z.unknown()).optional(),
});
const opml = z.object({
  opml: z.object({
    head: z
      .looseObject({ title: z.union([z.string(), z.number()]).optional() })
      .or(z.literal(''))
      .optional(),
    body: z.looseObject({ outline: z.array(z.unknown()).optional() }).or(z.literal('')),
  }),
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'outline',
  parseAttributeValue: false,
  parseTagValue: false,
  htmlEntities: true,
});

/**
 * An outline's text as the question: Workflowy and Logseq write formatting as HTML inside it (`<b>`, `<span>`),
 * which is left out; entities are already decoded by the parser.
 */
const questionOf = (text: string): string =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Reads OPML as XMind, MindNode, Logseq, Workflowy and OmniOutliner export it (fast-xml-parser): each `outline` is a
 * node, its `text` (or `title`) the question and its `_note` kept as context; the head's title names the map.
 * Refused: XML that is not well formed (named by line and column), entity declarations (which could expand
 * without bound), a document without `opml` and `body`, a body without outlines, an outline without text.
 */
export function parseOpml(content: string): ImportedMap {
  if (/<!ENTITY/i.test(content)) throw new MapImportError('document', 'entity declarations are not accepted');
  const valid = XMLValidator.validate(content);
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    throw new MapImportError(`line ${line}, column ${col}`, `not well-formed XML: ${msg}`);
  }
  const parsed = opml.safeParse(parser.parse(content));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MapImportError(issue.path.join('/') || 'document', `not OPML: ${issue.message}`);
  }
  const { head, body } = parsed.data.opml;
  const tree: ImportedNode[] = [];
  let count = 0;
  const stack: { raw: unknown; where: string; into: ImportedNode[] }[] = [];
  const push = (list: readonly unknown[], where: string, into: ImportedNode[]) => {
    for (let i = list.length - 1; i >= 0; i--) stack.push({ raw: list[i], where: `${where}/outline[${i + 1}]`, into });
  };
  push(body === '' ? [] : (body.outline ?? []), 'opml/body', tree);
  while (stack.length) {
    const { raw, where, into } = stack.pop()!;
    const item = outline.safeParse(raw);
    if (!item.success) throw new MapImportError(where, 'an outline must be an element with attributes');
    const question = questionOf(item.data.text ?? item.data.title ?? '');
    if (!question) throw new MapImportError(where, 'an outline has no text');
    count++;
    const node = outlineNode(`n${count}`, question, where, item.data._note ? [item.data._note] : []);
    into.push(node);
    push(item.data.outline ?? [], where, node.children);
  }
  if (!tree.length) throw new MapImportError('opml/body', 'the body has no outline to make a node of');
  const title = head === '' || head?.title === undefined ? null : String(head.title).trim() || null;
  return outlineMap(title ?? (tree.length === 1 ? tree[0]!.question : null), tree);
}
