import { readFile } from 'node:fs/promises';
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import { chunkDocument } from './chunk-document.ts';
import { makeSnippet } from './make-snippet.ts';
import type { Passage } from './passage.ts';
import { scanFolder } from './scan-folder.ts';
import type { SearchHit } from './search-hit.ts';
import { isHanToken, tokenize } from './tokenize.ts';

/** Options of one {@link KnowledgeIndex.search}. */
export interface IndexSearchOptions {
  /** Text that re-ranks hits of the query (the question's surroundings); it never adds hits of its own. */
  context?: string;
  /** The most hits to return. */
  maxResults?: number;
  /** Only passages of these files are considered. */
  paths?: ReadonlySet<string>;
}

/** How much a hit's context score counts next to its query score. */
const CONTEXT_WEIGHT = 0.3;

const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 2, headings: 1.5, domains: 1.5 },
  prefix: (term) => !isHanToken(term) && term.length > 2,
  fuzzy: (term) => (!isHanToken(term) && term.length > 4 ? 0.2 : false),
  combineWith: 'OR',
};

/**
 * A full-text index (MiniSearch, BM25) over the passages of a folder of Markdown and text files. The folder
 * is the source of truth: before every search the index compares each file's modification stamp with the
 * one it indexed and re-reads only what changed, so edits, new files and deletions show up in the next answer
 * without a watcher (watchers miss events on network and container file systems).
 */
export class KnowledgeIndex {
  /** The indexed folder, absolute. */
  readonly folder: string;
  private readonly search$ = new MiniSearch<Passage>({
    fields: ['text', 'headings', 'title', 'domains'],
    storeFields: ['path'],
    extractField: (passage, field) => {
      const value: unknown = Object.hasOwn(passage, field) ? Reflect.get(passage, field) : undefined;
      return Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '';
    },
    tokenize,
    searchOptions: SEARCH_OPTIONS,
  });
  private readonly passages = new Map<string, Passage>();
  private readonly files = new Map<string, { version: string; ids: string[] }>();
  private refreshing: Promise<void> = Promise.resolve();

  constructor(folder: string) {
    this.folder = folder;
  }

  /** Brings the index up to date with the folder; concurrent calls run one after another. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(
      () => this.sync(),
      () => this.sync(),
    );
    return this.refreshing;
  }

  /** The indexed documents (after the last refresh): path, title and declared domains. */
  documents(): { path: string; title: string; domains: string[]; passages: Passage[] }[] {
    return [...this.files.entries()].map(([path, file]) => {
      const passages = file.ids.map((id) => this.passages.get(id)!);
      return { path, title: passages[0]?.title ?? path, domains: passages[0]?.domains ?? [], passages };
    });
  }

  /** Searches the passages for `query`; hits are best first with snippets and their own line ranges. */
  async search(query: string, options: IndexSearchOptions = {}): Promise<SearchHit[]> {
    await this.refresh();
    const filter = options.paths ? (result: SearchResult) => options.paths!.has(result.path) : undefined;
    const results = this.search$.search(query, filter ? { filter } : {});
    if (results.length === 0) return [];
    const contextScores = new Map<string, number>();
    if (options.context?.trim()) {
      for (const result of this.search$.search(options.context, filter ? { filter } : {})) {
        contextScores.set(result.id, result.score);
      }
    }
    const topContext = Math.max(1, ...contextScores.values());
    const topQuery = results[0]!.score;
    const ranked = results
      .map((result) => ({
        result,
        score: result.score / topQuery + (CONTEXT_WEIGHT * (contextScores.get(result.id) ?? 0)) / topContext,
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.maxResults ?? 5);
    const best = ranked[0]!.score;
    return ranked.map(({ result, score }) => this.toHit(result, score / best));
  }

  private toHit(result: SearchResult, score: number): SearchHit {
    const passage = this.passages.get(result.id)!;
    const snippet = makeSnippet(passage, result.terms);
    return {
      path: passage.path,
      title: passage.title,
      headings: passage.headings,
      startLine: snippet.startLine,
      endLine: snippet.endLine,
      snippet: snippet.text,
      score: Math.round(score * 1000) / 1000,
    };
  }

  private async sync(): Promise<void> {
    const scanned = await scanFolder(this.folder);
    const seen = new Set(scanned.map((file) => file.path));
    for (const path of [...this.files.keys()]) if (!seen.has(path)) this.drop(path);
    for (const file of scanned) {
      if (this.files.get(file.path)?.version === file.version) continue;
      // A file removed or unreadable since the scan is simply not indexed (the next sync sees it again).
      const content = await readFile(file.absolutePath, 'utf8').catch(() => undefined);
      this.drop(file.path);
      if (content === undefined) continue;
      const passages = chunkDocument(file.path, content);
      for (const passage of passages) this.passages.set(passage.id, passage);
      this.search$.addAll(passages);
      this.files.set(file.path, { version: file.version, ids: passages.map((passage) => passage.id) });
    }
  }

  private drop(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    for (const id of file.ids) {
      this.search$.discard(id);
      this.passages.delete(id);
    }
    this.files.delete(path);
  }
}
