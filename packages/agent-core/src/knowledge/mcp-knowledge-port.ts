import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AgentError } from '../errors/agent-error.ts';
import {
  DOMAIN_KNOWLEDGE_TOOL_ID,
  type KnowledgePort,
  type KnowledgeSearchOptions,
  type KnowledgeTool,
  type KnowledgeToolAnswer,
} from '../ports/knowledge-port.ts';
import type { KnowledgeNotice } from './knowledge-notice.ts';
import type { McpClientManager } from './mcp-client-manager.ts';
import { type McpKnowledgeResult, type McpKnowledgeSource, parseSearchResults } from './parse-search-results.ts';
import { resultText } from './tool-call-outcome.ts';

/** The tool every knowledge server is asked: `knowledge_search(query, context?, max_results)`. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';
/** The tool for `domain_knowledge(domain, topic?)`; listed once for all servers under this same id. */
export const DOMAIN_KNOWLEDGE_TOOL = DOMAIN_KNOWLEDGE_TOOL_ID;

/** Tools called on every server that offers them, so they are not listed per server. */
const EVERYWHERE_TOOLS = new Set([KNOWLEDGE_SEARCH_TOOL, DOMAIN_KNOWLEDGE_TOOL]);

/** What a search found and what went wrong on the way. */
export interface KnowledgeAnswer {
  /** Best first, at most the asked number, from every server that answered. */
  results: McpKnowledgeResult[];
  /** One per server that was down, slow or failed; empty when all answered. */
  notices: KnowledgeNotice[];
}

/** Options of an {@link McpKnowledgePort}. */
export interface McpKnowledgePortOptions {
  /** Shown in notices; defaults to "MCP knowledge". */
  name?: string;
  /** Told about every notice (of searches, domain knowledge and tool calls), e.g. to log it. */
  onNotice?: (notice: KnowledgeNotice) => void;
  /**
   * Search with each server's own search tool, not only `knowledge_search`: the servers of a web search
   * provider name theirs as they like (`web_search`, `brave_web_search`, `searxng_web_search`, …).
   */
  anySearchTool?: boolean;
}

/** A search tool's names for the query and for how many results, in the order they are looked for. */
const QUERY_KEYS = ['query', 'q', 'search', 'text'];
const COUNT_KEYS = ['max_results', 'maxResults', 'count', 'limit', 'num_results'];

/**
 * The search call for a server's tools: `knowledge_search` when it has it, else its search tool (a name with
 * "search", a web one first), with the query (and the number of results, when the tool takes one) under the
 * names its input schema gives them. Null when it offers no search tool.
 */
export function chooseSearchCall(
  tools: readonly Tool[],
  query: string,
  maxResults: number,
  context?: string,
): { tool: string; args: Record<string, unknown> } | null {
  if (tools.some((t) => t.name === KNOWLEDGE_SEARCH_TOOL))
    return { tool: KNOWLEDGE_SEARCH_TOOL, args: { query, max_results: maxResults, ...(context ? { context } : {}) } };
  const searches = tools.filter((t) => /search/i.test(t.name));
  const tool = searches.find((t) => /web/i.test(t.name)) ?? searches[0];
  if (!tool) return null;
  const properties = Object.keys(tool.inputSchema.properties ?? {});
  const queryKey = QUERY_KEYS.find((k) => properties.includes(k)) ?? 'query';
  const countKey = COUNT_KEYS.find((k) => properties.includes(k));
  return { tool: tool.name, args: { [queryKey]: query, ...(countKey ? { [countKey]: maxResults } : {}) } };
}

function merge(answers: McpKnowledgeResult[][], maxResults: number): McpKnowledgeResult[] {
  // Scores from different servers are not comparable beyond their order: interleave by rank, then score.
  const ranked = answers.flatMap((results) => results.map((result, rank) => ({ result, rank })));
  ranked.sort((a, b) => a.rank - b.rank || (b.result.score ?? 0) - (a.result.score ?? 0));
  return ranked.slice(0, maxResults).map(({ result }) => result);
}

/**
 * A {@link KnowledgePort} over every configured MCP server that offers `knowledge_search`. Servers are asked
 * in parallel; a server that is down, slow or failing only adds a notice. {@link search} throws
 * `KNOWLEDGE_UNAVAILABLE` only when no server could answer at all, as the port contract asks;
 * {@link searchWithNotices} never throws for a server's failure.
 */
export class McpKnowledgePort implements KnowledgePort {
  readonly name: string;

  constructor(
    private readonly manager: McpClientManager,
    private readonly options: McpKnowledgePortOptions = {},
  ) {
    this.name = options.name ?? 'MCP knowledge';
  }

  /** {@inheritDoc KnowledgePort.search} */
  async search(query: string, options: KnowledgeSearchOptions = {}): Promise<McpKnowledgeResult[]> {
    const answer = await this.searchWithNotices(query, options);
    if (answer.results.length === 0 && answer.notices.length > 0 && !answer.answered) {
      const reasons = answer.notices.map((notice) => notice.message).join(' ');
      throw new AgentError('KNOWLEDGE_UNAVAILABLE', `${this.name}: no knowledge server answered. ${reasons}`);
    }
    return answer.results;
  }

  /** Searches every knowledge server; results plus a notice per server that gave nothing. */
  async searchWithNotices(
    query: string,
    options: KnowledgeSearchOptions = {},
  ): Promise<KnowledgeAnswer & { answered: number }> {
    const maxResults = options.maxResults ?? 5;
    const args = { query, max_results: maxResults, ...(options.context ? { context: options.context } : {}) };
    const { answers, notices } = this.options.anySearchTool
      ? await this.manager.callChosen(
          (tools) => chooseSearchCall(tools, query, maxResults, options.context),
          { tool: 'search', args },
          options.signal,
        )
      : await this.manager.callEverywhere(KNOWLEDGE_SEARCH_TOOL, args, options.signal);
    const perServer = answers.map((a) => parseSearchResults(a.result, a.server, a.tool));
    for (const notice of notices) this.options.onNotice?.(notice);
    return { results: merge(perServer, maxResults), notices, answered: answers.length };
  }

  /** Asks every server offering `domain_knowledge` about `domain` (and `topic`); never throws for a server. */
  async domainKnowledge(domain: string, topic?: string, signal?: AbortSignal): Promise<KnowledgeAnswer> {
    const args = { domain, ...(topic ? { topic } : {}) };
    const { answers, notices } = await this.manager.callEverywhere(DOMAIN_KNOWLEDGE_TOOL, args, signal);
    const perServer = answers.map((a) => {
      const passages = a.result.structuredContent?.passages;
      const result = Array.isArray(passages) ? { ...a.result, structuredContent: { results: passages } } : a.result;
      return parseSearchResults(result, a.server, DOMAIN_KNOWLEDGE_TOOL);
    });
    for (const notice of notices) this.options.onNotice?.(notice);
    return { results: merge(perServer, 10), notices };
  }

  /**
   * The tools of the servers reached so far for the model to choose from: `domain_knowledge` once (when a
   * server offers it; every such server is asked, see {@link domainKnowledge}), then every other tool but
   * `knowledge_search` as `server/tool`.
   */
  async listTools(): Promise<KnowledgeTool[]> {
    const all = this.manager.tools();
    const domain = all.find(({ tool }) => tool.name === DOMAIN_KNOWLEDGE_TOOL);
    const describe = ({ tool }: (typeof all)[number]) => ({
      description: tool.description ?? tool.title ?? tool.name,
      inputSchema: tool.inputSchema as Record<string, unknown>,
    });
    const others = all
      .filter(({ tool }) => !EVERYWHERE_TOOLS.has(tool.name))
      .map((entry) => ({ id: `${entry.server}/${entry.tool.name}`, ...describe(entry) }));
    return domain ? [{ id: DOMAIN_KNOWLEDGE_TOOL, ...describe(domain) }, ...others] : others;
  }

  /**
   * Calls the tool `server/tool` (or `domain_knowledge` on every server offering it); throws
   * `KNOWLEDGE_UNAVAILABLE` with the servers' notices when it gave nothing.
   */
  async callTool(id: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<KnowledgeToolAnswer> {
    if (id === DOMAIN_KNOWLEDGE_TOOL) return this.callDomainKnowledge(args, signal);
    const slash = id.indexOf('/');
    const [server, tool] = slash > 0 ? [id.slice(0, slash), id.slice(slash + 1)] : ['', id];
    const outcome = await this.manager.callTool(server, tool, args, signal);
    if (!outcome.ok) {
      this.options.onNotice?.(outcome.notice);
      throw new AgentError('KNOWLEDGE_UNAVAILABLE', outcome.notice.message);
    }
    const structured = outcome.result.structuredContent;
    const content = resultText(outcome.result) || (structured ? JSON.stringify(structured) : '');
    const source: McpKnowledgeSource = { title: id, server };
    return { content, sources: [source] };
  }

  private async callDomainKnowledge(args: Record<string, unknown>, signal?: AbortSignal) {
    const topic = typeof args.topic === 'string' ? args.topic : undefined;
    const answer = await this.domainKnowledge(String(args.domain ?? ''), topic, signal);
    if (answer.results.length === 0 && answer.notices.length > 0)
      throw new AgentError('KNOWLEDGE_UNAVAILABLE', answer.notices.map((n) => n.message).join(' '));
    return {
      content: answer.results.map((result) => result.content).join('\n\n'),
      sources: answer.results.flatMap((result) => result.sources),
    };
  }
}
