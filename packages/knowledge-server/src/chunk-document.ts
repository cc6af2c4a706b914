import { parseFrontMatter } from './front-matter.ts';
import type { Passage } from './passage.ts';

/** A section longer than this many characters is split between paragraphs. */
export const MAX_PASSAGE_CHARS = 700;

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

interface Draft {
  startLine: number;
  endLine: number;
  lines: string[];
  headings: string[];
}

function titleOf(path: string, lines: readonly string[], declared: string | undefined): string {
  if (declared) return declared;
  const h1 = lines.map((line) => /^#\s+(.+?)\s*#*\s*$/.exec(line)?.[1]).find((text) => text !== undefined);
  return h1 ?? (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
}

/**
 * Cuts a Markdown or plain-text file into passages with exact line ranges. Every heading starts a new
 * passage (headings inside fenced code do not); a section longer than {@link MAX_PASSAGE_CHARS} is cut at
 * paragraph boundaries, never inside a paragraph, so a quoted snippet always reads whole.
 */
export function chunkDocument(path: string, content: string): Passage[] {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const front = parseFrontMatter(lines);
  const title = titleOf(path, lines, front.title);
  const drafts: Draft[] = [];
  const headings: string[] = [];
  let current: Draft | undefined;
  let size = 0;
  let inFence = false;
  let blankBefore = true;

  const close = () => {
    if (current?.lines.some((line) => line.trim() !== '')) drafts.push(current);
    current = undefined;
    size = 0;
  };

  for (let index = front.lineCount; index < lines.length; index += 1) {
    const line = lines[index]!;
    const lineNumber = index + 1;
    const heading = inFence ? null : HEADING.exec(line);
    if (FENCE.test(line)) inFence = !inFence;
    if (heading) {
      close();
      const level = heading[1]!.length;
      headings.splice(level - 1, headings.length, heading[2]!);
      while (headings.length < level) headings.unshift('');
    } else if (line.trim() === '') {
      blankBefore = true;
      if (current) current.lines.push(line);
      continue;
    } else if (current && blankBefore && !inFence && size > MAX_PASSAGE_CHARS) {
      close();
    }
    blankBefore = false;
    current ??= { startLine: lineNumber, endLine: lineNumber, lines: [], headings: headings.filter(Boolean) };
    current.lines.push(line);
    current.endLine = lineNumber;
    size += line.length;
  }
  close();

  return drafts.map((draft) => ({
    id: `${path}#${draft.startLine}`,
    path,
    title,
    domains: front.domains,
    headings: draft.headings,
    startLine: draft.startLine,
    endLine: draft.endLine,
    text: draft.lines.slice(0, draft.endLine - draft.startLine + 1).join('\n'),
  }));
}
