import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { KnowledgeNoticeKind } from './knowledge-notice.ts';

/** What a failed request means for the connection it was sent on. */
export interface ClassifiedFailure {
  kind: Exclude<KnowledgeNoticeKind, 'tool-error' | 'no-tool'>;
  /** Whether the connection is unusable and must be rebuilt before the next request. */
  connectionLost: boolean;
  detail: string;
}

/**
 * Sorts an error thrown by the SDK client. A timeout leaves the connection usable (the server is slow, not
 * gone); an MCP error answered by the server means it is alive; anything else (refused connection, closed
 * pipe, HTTP status errors such as an expired session's 404) means the connection must be rebuilt.
 */
export function classifyFailure(error: unknown): ClassifiedFailure {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return { kind: 'timeout', connectionLost: false, detail };
    if (error.code !== ErrorCode.ConnectionClosed) return { kind: 'protocol-error', connectionLost: false, detail };
  }
  return { kind: 'unreachable', connectionLost: true, detail };
}
