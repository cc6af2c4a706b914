/** A searchable piece of a document: one section, or a run of paragraphs of a long section. */
export interface Passage {
  /** Stable id: `path#startLine`. */
  id: string;
  /** The file's path relative to the indexed folder, with `/` separators. */
  path: string;
  /** The document's title (front matter, first `#` heading, or the file name). */
  title: string;
  /** Domains the document declares in its front matter. */
  domains: string[];
  /** The headings above the passage, outermost first. */
  headings: string[];
  /** First line of the passage in the file, 1-based. */
  startLine: number;
  /** Last line of the passage in the file, 1-based and inclusive. */
  endLine: number;
  /** The passage's text as written in the file. */
  text: string;
}
