/**
 * Why a configured MCP server gave nothing:
 * - `unreachable`: it could not be started or connected to, or the connection dropped;
 * - `timeout`: it did not answer within its configured time;
 * - `tool-error`: the tool ran and reported an error (`isError` result);
 * - `protocol-error`: the server refused the request (unknown tool, invalid arguments, ...);
 * - `no-tool`: no connected server offers the tool that was asked for.
 */
export type KnowledgeNoticeKind = 'unreachable' | 'timeout' | 'tool-error' | 'protocol-error' | 'no-tool';

/** A failure to report next to results instead of throwing: the run goes on without that server. */
export interface KnowledgeNotice {
  /** The server's name in the config file (empty for `no-tool`). */
  server: string;
  /** The tool that was called. */
  tool: string;
  kind: KnowledgeNoticeKind;
  /** A sentence for the person, e.g. `MCP server "wiki" did not answer knowledge_search within 5000 ms.` */
  message: string;
}
