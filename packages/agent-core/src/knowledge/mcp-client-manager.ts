import type { Implementation, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { KnowledgeNotice } from './knowledge-notice.ts';
import type { McpServersConfig } from './mcp-servers-config.ts';
import { type ConnectionState, McpServerConnection } from './server-connection.ts';
import type { ToolCallOutcome } from './tool-call-outcome.ts';

/** Options of an {@link McpClientManager}. */
export interface McpClientManagerOptions {
  /** How the client introduces itself to servers. */
  clientInfo?: Implementation;
}

/** A server's state as shown in status pages and logs. */
export interface McpServerStatus {
  name: string;
  state: ConnectionState;
  tools: string[];
  lastError?: string;
}

/** A tool and the server that offers it, for agents that let the model choose among all tools. */
export interface DiscoveredTool {
  server: string;
  tool: Tool;
}

/**
 * Owns one {@link McpServerConnection} per enabled server of a config. Nothing here throws because a server
 * is down, slow or failing: calls resolve to outcomes, and fan-out calls collect what the healthy servers
 * answered plus a notice per server that did not.
 */
export class McpClientManager {
  private readonly connections: McpServerConnection[];

  constructor(config: McpServersConfig, options: McpClientManagerOptions = {}) {
    const clientInfo = options.clientInfo ?? { name: 'thinkingmap', version: '0.1.0' };
    this.connections = Object.entries(config.mcpServers)
      .filter(([, entry]) => !entry.disabled)
      .map(
        ([name, entry]) =>
          new McpServerConnection(name, entry, {
            timeoutMs: entry.timeoutMs ?? config.timeoutMs,
            connectTimeoutMs: entry.connectTimeoutMs ?? config.connectTimeoutMs,
            reconnect: config.reconnect,
            clientInfo,
          }),
      );
  }

  /** Connects every server in parallel and discovers its tools; resolves with the state of each. */
  async start(): Promise<McpServerStatus[]> {
    await Promise.all(this.connections.map((connection) => connection.ensureReady()));
    return this.status();
  }

  /** The state, tools and last error of every enabled server. */
  status(): McpServerStatus[] {
    return this.connections.map((c) => ({
      name: c.name,
      state: c.state,
      tools: c.tools.map((tool) => tool.name),
      ...(c.lastError ? { lastError: c.lastError } : {}),
    }));
  }

  /** Every tool of every server that has been reached, as last discovered. */
  tools(): DiscoveredTool[] {
    return this.connections.flatMap((c) => c.tools.map((tool) => ({ server: c.name, tool })));
  }

  /** Calls `tool` on the server named `server`. */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ToolCallOutcome> {
    const connection = this.connections.find((c) => c.name === server);
    if (!connection) {
      const message = `No MCP server named "${server}" is configured.`;
      return { ok: false, server, tool, notice: { server, tool, kind: 'no-tool', message } };
    }
    return connection.callTool(tool, args, signal);
  }

  /**
   * Calls `tool` on every server that offers it, in parallel. Servers not reached yet (or down, once their
   * backoff allows) are tried first so a server that came back takes part. A server that is down and never
   * listed its tools is assumed to offer `tool`, so its absence is reported rather than silently ignored.
   */
  async callEverywhere(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ answers: Extract<ToolCallOutcome, { ok: true }>[]; notices: KnowledgeNotice[] }> {
    await Promise.all(this.connections.map((c) => c.ensureReady()));
    const targets = this.connections.filter(
      (c) => c.tools.some((t) => t.name === tool) || (c.state !== 'ready' && c.tools.length === 0),
    );
    const outcomes = await Promise.all(targets.map((c) => c.callTool(tool, args, signal)));
    const answers = outcomes.filter((o): o is Extract<ToolCallOutcome, { ok: true }> => o.ok);
    const notices = outcomes.flatMap((o) => (o.ok ? [] : [o.notice]));
    if (targets.length === 0) {
      notices.push({ server: '', tool, kind: 'no-tool', message: `No configured MCP server offers ${tool}.` });
    }
    return { answers, notices };
  }

  /**
   * Calls, on every server, the tool `choose` picks from that server's tools (servers whose tools offer
   * nothing to pick are left out), in parallel; like {@link callEverywhere}, a server that is down and never
   * listed its tools is tried with `fallback`, so it is reported rather than silently ignored.
   */
  async callChosen(
    choose: (tools: Tool[]) => { tool: string; args: Record<string, unknown> } | null,
    fallback: { tool: string; args: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<{ answers: Extract<ToolCallOutcome, { ok: true }>[]; notices: KnowledgeNotice[] }> {
    await Promise.all(this.connections.map((c) => c.ensureReady()));
    const calls = this.connections.flatMap((c) => {
      const call = c.state !== 'ready' && c.tools.length === 0 ? fallback : choose(c.tools);
      return call ? [{ connection: c, ...call }] : [];
    });
    const outcomes = await Promise.all(calls.map((c) => c.connection.callTool(c.tool, c.args, signal)));
    const answers = outcomes.filter((o): o is Extract<ToolCallOutcome, { ok: true }> => o.ok);
    const notices = outcomes.flatMap((o) => (o.ok ? [] : [o.notice]));
    if (calls.length === 0) {
      const message = `No configured MCP server offers a ${fallback.tool} tool.`;
      notices.push({ server: '', tool: fallback.tool, kind: 'no-tool', message });
    }
    return { answers, notices };
  }

  /** Closes every connection and stops stdio servers. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
