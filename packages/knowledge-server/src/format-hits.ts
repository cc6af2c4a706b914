import type { SearchHit } from './search-hit.ts';

/** Where a hit is, as people and editors write it: `path:12-18`. */
export function locationOf(hit: Pick<SearchHit, 'path' | 'startLine' | 'endLine'>): string {
  return hit.startLine === hit.endLine ? `${hit.path}:${hit.startLine}` : `${hit.path}:${hit.startLine}-${hit.endLine}`;
}

/**
 * Renders hits as the text content of a tool result, for models that read text rather than
 * `structuredContent`: each hit is numbered, located and quoted, so a model can cite `[n]`.
 */
export function formatHits(hits: readonly SearchHit[], emptyMessage: string): string {
  if (hits.length === 0) return emptyMessage;
  return hits
    .map((hit, i) => {
      const trail = [hit.title, ...hit.headings.filter((heading) => heading !== hit.title)].join(' › ');
      return `[${i + 1}] ${locationOf(hit)} — ${trail} (score ${hit.score})\n${hit.snippet}`;
    })
    .join('\n\n');
}
