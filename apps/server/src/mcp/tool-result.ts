import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, ValidationError } from '../commands/domain-errors.ts';

/** The code of an MCP tool error that is not a domain error (the cause stays in the server log). */
export const INTERNAL_ERROR_CODE = 'INTERNAL';

/**
 * A successful tool result: `structured` as `structuredContent`, and the same data as JSON text (after an
 * optional summary line) for clients that only read text.
 */
export function toolResult(structured: Record<string, unknown>, summary?: string, markdown?: string): CallToolResult {
  const json = JSON.stringify(structured, null, 2);
  const text = [summary, markdown, markdown ? undefined : json].filter(Boolean).join('\n\n');
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A tool error result carrying the domain error's code: `[CODE] message` as text, and
 * `{ error: { code, message, field? } }` as structured content so a client can branch on the code.
 */
export function toolError(code: string, message: string, field?: string): CallToolResult {
  const error = { code, message, ...(field ? { field } : {}) };
  return { isError: true, content: [{ type: 'text', text: `[${code}] ${message}` }], structuredContent: { error } };
}

/**
 * Runs a tool's work and turns what it throws into a tool error: a {@link DomainError} keeps its code and
 * message; anything else is logged and reported as `INTERNAL` "Unexpected error." (never a stack trace).
 */
export async function runTool(
  work: () => Promise<CallToolResult>,
  logError: (error: unknown) => void,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) {
      return toolError(error.code, error.message, error instanceof ValidationError ? error.field : undefined);
    }
    logError(error);
    return toolError(INTERNAL_ERROR_CODE, 'Unexpected error.');
  }
}
