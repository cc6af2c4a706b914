import type { MapNode } from '../api/results.ts';

/** Which of a node's texts matched. */
export type SearchField = 'question' | 'goal' | 'conclusion';

/** A node that matches a search, with the text to show for it. */
export interface SearchHit {
  id: string;
  field: SearchField;
  /** The matching text (a window around the match for long goals and conclusions). */
  snippet: string;
}

/** A piece of text, marked when it matches. */
export interface MarkedPart {
  text: string;
  mark: boolean;
}

const FIELDS: readonly SearchField[] = ['question', 'goal', 'conclusion'];

/** The search words: lower-cased, split on white space. */
export function searchTerms(query: string): string[] {
  return query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
}

function snippetOf(text: string, term: string): string {
  const at = text.toLocaleLowerCase().indexOf(term);
  if (text.length <= 90 || at < 0) return text;
  const start = Math.max(0, at - 30);
  return `${start > 0 ? '…' : ''}${text.slice(start, start + 90)}${start + 90 < text.length ? '…' : ''}`;
}

/**
 * The nodes whose question, goal or conclusion holds every search word (in any of the three, any case), in the
 * order given (the caller passes reading order), each with the field that holds the first word.
 */
export function searchMap(nodes: Iterable<MapNode>, query: string): SearchHit[] {
  const terms = searchTerms(query);
  if (!terms.length) return [];
  const hits: SearchHit[] = [];
  for (const node of nodes) {
    const texts = FIELDS.map((field) => [field, node[field] ?? ''] as const);
    const haystack = texts.map(([, text]) => text.toLocaleLowerCase()).join('\n');
    if (!terms.every((term) => haystack.includes(term))) continue;
    const [field, text] = texts.find(([, text]) => text.toLocaleLowerCase().includes(terms[0]!)) ?? texts[0]!;
    hits.push({ id: node.id, field, snippet: snippetOf(text, terms[0]!) });
  }
  return hits;
}

/** Splits `text` into parts, marking every occurrence of a search word (for `<mark>`). */
export function markMatches(text: string, terms: readonly string[]): MarkedPart[] {
  const lower = text.toLocaleLowerCase();
  const marked = new Array<boolean>(text.length).fill(false);
  for (const term of terms)
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + term.length))
      marked.fill(true, at, at + term.length);
  const parts: MarkedPart[] = [];
  for (let i = 0; i < text.length; i++) {
    const last = parts.at(-1);
    if (last && last.mark === marked[i]) last.text += text[i];
    else parts.push({ text: text[i]!, mark: marked[i]! });
  }
  return parts;
}
