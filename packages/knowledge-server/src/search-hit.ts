/** One result of a knowledge search: a snippet and exactly where it is in the folder. */
export interface SearchHit {
  /** The file's path relative to the indexed folder, with `/` separators. */
  path: string;
  /** The document's title. */
  title: string;
  /** The headings above the snippet, outermost first. */
  headings: string[];
  /** First line of the snippet in the file, 1-based. */
  startLine: number;
  /** Last line of the snippet in the file, 1-based and inclusive. */
  endLine: number;
  /** The quoted lines, unchanged from the file. */
  snippet: string;
  /** Relevance in (0, 1], the best hit of the answer scoring 1. */
  score: number;
}
