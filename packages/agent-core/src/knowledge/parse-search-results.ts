import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KnowledgeResult, KnowledgeSource } from '../ports/knowledge-port.ts';
import { resultText } from './tool-call-outcome.ts';

/** A source with what MCP knowledge servers report beyond a title: which server, which file and lines. */
export interface McpKnowledgeSource extends KnowledgeSource {
  /** The configured name of the server that answered. */
  server: string;
  /** The file path the server reported, relative to its folder. */
  path?: string;
  /** First quoted line, 1-based. */
  startLine?: number;
  /** Last quoted line, 1-based, inclusive. */
  endLine?: number;
}

/** A result whose sources are {@link McpKnowledgeSource}s. */
export interface McpKnowledgeResult extends KnowledgeResult {
  sources: McpKnowledgeSource[];
}

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null;
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const int = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

function fromRow(row: Row, server: string): McpKnowledgeResult | undefined {
  const content = str(row.snippet) ?? str(row.content) ?? str(row.text);
  if (!content) return undefined;
  const path = str(row.path);
  const startLine = int(row.startLine);
  const endLine = int(row.endLine) ?? startLine;
  const headings = Array.isArray(row.headings) ? row.headings.filter((h): h is string => typeof h === 'string') : [];
  const title = [str(row.title), headings.at(-1)].filter((part, i, all) => part && all.indexOf(part) === i).join(' › ');
  const where = path && startLine ? `${path}:${startLine === endLine ? startLine : `${startLine}-${endLine}`}` : path;
  const uri = str(row.uri) ?? str(row.url);
  const source: McpKnowledgeSource = {
    title: where ?? (title || server),
    server,
    ...(uri ? { uri } : {}),
    ...(path ? { path } : {}),
    ...(startLine ? { startLine } : {}),
    ...(endLine ? { endLine } : {}),
  };
  const score = typeof row.score === 'number' ? Math.max(0, Math.min(1, row.score)) : undefined;
  return { title, content, sources: [source], ...(score === undefined ? {} : { score }) };
}

/**
 * Reads a search tool's answer. Structured results (`structuredContent.results`, rows with `snippet` or
 * `content`, and `path`/`startLine`/`endLine` or `uri`) become one result each with their source; a server
 * that answers in text only becomes one result whose source is the server itself, so nothing it said is
 * lost and its origin still shows.
 */
export function parseSearchResults(result: CallToolResult, server: string, tool: string): McpKnowledgeResult[] {
  const rows = result.structuredContent?.results;
  if (Array.isArray(rows)) {
    return rows.flatMap((row) => (isRow(row) ? (fromRow(row, server) ?? []) : []));
  }
  const text = resultText(result);
  if (!text) return [];
  return [{ title: `${server} · ${tool}`, content: text, sources: [{ title: `${server} · ${tool}`, server }] }];
}
