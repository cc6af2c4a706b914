import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Implementation, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  circuitBreaker,
  ExponentialBackoff,
  handleAll,
  noJitterGenerator,
} from 'cockatiel';
import { AgentError } from '../errors/agent-error.ts';
import { classifyFailure } from './classify-failure.ts';
import { createClientTransport } from './create-client-transport.ts';
import type { KnowledgeNoticeKind } from './knowledge-notice.ts';
import type { McpServerEntry } from './mcp-servers-config.ts';
import { resultText, type ToolCallOutcome } from './tool-call-outcome.ts';

/** Where a connection stands: `down` waits for its next reconnect time; `closed` is final. */
export type ConnectionState = 'idle' | 'connecting' | 'ready' | 'down' | 'closed';

/** Settings of one connection, resolved from the entry and the file's defaults. */
export interface ConnectionSettings {
  timeoutMs: number;
  connectTimeoutMs: number;
  reconnect: { initialDelayMs: number; maxDelayMs: number };
  clientInfo: Implementation;
}

/**
 * One configured MCP server: connects lazily, discovers its tools on every (re)connect and when the server
 * says they changed, and turns every failure into a {@link ToolCallOutcome} notice instead of an exception.
 * A connection that drops after working is rebuilt at the next use (a crashed stdio server is respawned,
 * an expired HTTP session renewed) and a read-only call is retried once on it. Connecting goes through a
 * circuit breaker (cockatiel): a server that cannot be reached is tried again only after a backoff that
 * doubles from `reconnect.initialDelayMs` up to `reconnect.maxDelayMs`, so a dead server costs a run almost
 * nothing and a server that comes back is used again.
 */
export class McpServerConnection {
  state: ConnectionState = 'idle';
  /** Tools discovered at the last (re)connect or list-changed notification. */
  tools: Tool[] = [];
  /** Why the server is down, when it is. */
  lastError: string | undefined;
  private client: Client | undefined;
  private connecting: Promise<boolean> | undefined;
  /** Open after a failed connect until its backoff passes; then one attempt decides (half-open). */
  private readonly reconnects: CircuitBreakerPolicy;

  constructor(
    readonly name: string,
    private readonly entry: McpServerEntry,
    private readonly settings: ConnectionSettings,
  ) {
    const { initialDelayMs, maxDelayMs } = settings.reconnect;
    this.reconnects = circuitBreaker(handleAll, {
      breaker: new ConsecutiveBreaker(1),
      halfOpenAfter: new ExponentialBackoff({
        initialDelay: initialDelayMs,
        maxDelay: maxDelayMs,
        generator: noJitterGenerator,
      }),
    });
  }

  /** Connects when needed and allowed by the backoff; true when the server is ready for requests. */
  ensureReady(): Promise<boolean> {
    if (this.state === 'ready') return Promise.resolve(true);
    if (this.state === 'closed') return Promise.resolve(false);
    this.connecting ??= this.reconnects
      .execute(() => this.connect())
      .catch((error: unknown) => {
        // A failed connect has recorded why in `lastError` (callers report it as a notice); an open breaker
        // means the server failed recently and its backoff has not passed.
        if (!(error instanceof BrokenCircuitError) && !this.lastError) this.lastError = String(error);
        return false;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  /** Calls `tool`; never throws except {@link AgentError} `CANCELLED` when `signal` aborts. */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolCallOutcome> {
    const fail = (kind: KnowledgeNoticeKind, message: string): ToolCallOutcome => ({
      ok: false,
      server: this.name,
      tool,
      notice: { server: this.name, tool, kind, message },
    });
    for (let attempt = 0; ; attempt += 1) {
      if (!(await this.ensureReady()) || !this.client) {
        return fail('unreachable', `MCP server "${this.name}" is unavailable: ${this.lastError ?? this.state}.`);
      }
      const client = this.client;
      try {
        const timeout = this.settings.timeoutMs;
        const options = { timeout, maxTotalTimeout: timeout, ...(signal ? { signal } : {}) };
        const result = (await client.callTool({ name: tool, arguments: args }, undefined, options)) as CallToolResult;
        if (result.isError) {
          return fail('tool-error', `MCP server "${this.name}" answered ${tool} with an error: ${resultText(result)}`);
        }
        return { ok: true, server: this.name, tool, result };
      } catch (error) {
        if (signal?.aborted) throw new AgentError('CANCELLED', `${tool} on "${this.name}" was cancelled`);
        const failure = classifyFailure(error);
        if (failure.kind === 'timeout') {
          return fail(
            'timeout',
            `MCP server "${this.name}" did not answer ${tool} within ${this.settings.timeoutMs} ms.`,
          );
        }
        if (!failure.connectionLost) {
          return fail('protocol-error', `MCP server "${this.name}" refused ${tool}: ${failure.detail}`);
        }
        this.dropConnection(client, failure.detail);
        const readOnly = this.tools.find((t) => t.name === tool)?.annotations?.readOnlyHint === true;
        if (attempt > 0 || !readOnly) {
          return fail('unreachable', `MCP server "${this.name}" was lost during ${tool}: ${failure.detail}`);
        }
      }
    }
  }

  /** Closes the connection for good (stdio servers are stopped). */
  async close(): Promise<void> {
    this.state = 'closed';
    const client = this.client;
    this.client = undefined;
    // The connection is given up either way; a transport that fails to close has nothing left to report to.
    await client?.close().catch(() => undefined);
  }

  /** Connects and lists the tools; throws (a failure for the breaker) when the server cannot be used. */
  private async connect(): Promise<boolean> {
    this.state = 'connecting';
    const { transport, stderrTail } = createClientTransport(this.entry);
    const client = new Client(this.settings.clientInfo, {
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (!error && tools) this.tools = tools;
          },
        },
      },
    });
    client.onclose = () => this.dropConnection(client, 'the connection closed');
    try {
      await client.connect(transport, { timeout: this.settings.connectTimeoutMs });
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.settings.timeoutMs });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      if (this.isClosed()) {
        await client.close();
        return false;
      }
      Object.assign(this, { client, tools, state: 'ready', lastError: undefined });
      return true;
    } catch (error) {
      client.onclose = undefined;
      // Closing a client that never connected can fail too; the connect failure below is what is reported.
      await client.close().catch(() => undefined);
      const stderr = stderrTail();
      if (!this.isClosed()) this.state = 'down';
      this.lastError = `${classifyFailure(error).detail}${stderr ? ` (stderr: ${stderr})` : ''}`;
      throw error;
    }
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Forgets a connection that stopped working; the next use reconnects at once. */
  private dropConnection(client: Client, reason: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.state !== 'closed') this.state = 'down';
    this.lastError = reason;
    client.onclose = undefined;
    // Already broken: `reason` is what is reported; closing only releases what is left of it.
    void client.close().catch(() => undefined);
  }
}
