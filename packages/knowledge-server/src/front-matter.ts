/** What a document may declare in a leading `---` block of `key: value` lines. */
export interface FrontMatter {
  /** The document's title (`title:`). */
  title?: string;
  /** Domains the document belongs to (`domains: a, b` or `domain: a`), used by `domain_knowledge`. */
  domains: string[];
  /** How many lines the block occupies, delimiters included; 0 when there is none. */
  lineCount: number;
}

const LIST = /^\[(.*)\]$/;

function parseList(value: string): string[] {
  const inner = LIST.exec(value)?.[1] ?? value;
  return inner
    .split(/[,，、]/)
    .map((item) => item.trim().replace(/^['"]|['"]$/g, ''))
    .filter((item) => item.length > 0);
}

/**
 * Reads a minimal YAML-like front matter block (flat `key: value` lines only). A full YAML parser would be
 * a dependency for three keys; anything it does not understand is ignored rather than rejected, so a
 * document with richer front matter still indexes.
 */
export function parseFrontMatter(lines: readonly string[]): FrontMatter {
  if (lines[0]?.trim() !== '---') return { domains: [], lineCount: 0 };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { domains: [], lineCount: 0 };
  const result: FrontMatter = { domains: [], lineCount: end + 1 };
  for (const line of lines.slice(1, end)) {
    const match = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line.trim());
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (key === 'title') result.title = value.replace(/^['"]|['"]$/g, '');
    if (key === 'domain' || key === 'domains' || key === 'tags') result.domains.push(...parseList(value));
  }
  return result;
}
