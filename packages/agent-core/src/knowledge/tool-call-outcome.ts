import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KnowledgeNotice } from './knowledge-notice.ts';

/** The result of calling a tool on one server: its result, or a notice saying why there is none. */
export type ToolCallOutcome =
  | { ok: true; server: string; tool: string; result: CallToolResult }
  | { ok: false; server: string; tool: string; notice: KnowledgeNotice };

/** The text blocks of a tool result joined, for notices and for servers that answer in text only. */
export function resultText(result: Pick<CallToolResult, 'content'>): string {
  return (result.content ?? [])
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
