import type { AgentError } from '../errors/agent-error.ts';

/**
 * Where an agent's knowledge comes from when the map and the person are not enough: an external search
 * (for example an MCP server behind `src/knowledge/`). The port is optional: every graph works without it,
 * and the explore step then says that no knowledge source is configured.
 */

/** Where a piece of retrieved knowledge came from, shown to the person next to the result. */
export interface KnowledgeSource {
  /** A human-readable name of the source (page title, document name, tool name). */
  title: string;
  /** A link or URI to the source when it has one. */
  uri?: string;
}

/** One search hit. */
export interface KnowledgeResult {
  /** A short title of the hit; may be empty. */
  title: string;
  /** The retrieved text, already trimmed to something an agent can quote. */
  content: string;
  /** Relevance in [0, 1] when the source reports one; higher is better. */
  score?: number;
  /** Where the content came from; at least one entry when the source knows it. */
  sources: KnowledgeSource[];
}

/** Options of one search. */
export interface KnowledgeSearchOptions {
  /** Text that narrows the search: the node's question and goal, the parent's question. */
  context?: string;
  /** The most results to return; implementations default to 5. */
  maxResults?: number;
  /** Aborts the search (run cancelled, step timed out). */
  signal?: AbortSignal;
}

/** What a search found plus a sentence per source that gave nothing (down, slow, failing). */
export interface KnowledgeSearchAnswer {
  results: KnowledgeResult[];
  notices: { message: string }[];
}

/** The id under which a port lists `domain_knowledge(domain, topic?)` among its tools. */
export const DOMAIN_KNOWLEDGE_TOOL_ID = 'domain_knowledge';

/** A tool beyond search that a knowledge source offers and the model may choose to call. */
export interface KnowledgeTool {
  /** Unique among the port's tools (for MCP: `server/tool`); the model answers with it. */
  id: string;
  /** What the tool does, as its server describes it. */
  description: string;
  /** The JSON schema of its arguments, shown to the model. */
  inputSchema: Record<string, unknown>;
}

/** What a tool answered, as text the agent can post, and where it came from. */
export interface KnowledgeToolAnswer {
  content: string;
  sources: KnowledgeSource[];
}

/**
 * Searches knowledge for a query. Implementations throw an {@link AgentError} with code
 * `KNOWLEDGE_UNAVAILABLE` when the source cannot be reached (the explore step then posts a notice instead of
 * failing the run) and return an empty array when nothing matched.
 */
export interface KnowledgePort {
  /** A short name of the source, shown in notices ("web search", "company wiki"). */
  readonly name: string;
  /** Searches for `query`; results are best first and at most `options.maxResults` long. */
  search(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeResult[]>;
  /**
   * Optional: searches like {@link search} but never throws for a source that is down, slow or failing;
   * such a source becomes a notice instead, so agents can post it and go on with what the others found.
   */
  searchWithNotices?(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeSearchAnswer>;
  /**
   * Optional: `domain_knowledge(domain, topic?)`, the passages of a field of knowledge (about `topic` when
   * given) with their sources. Like {@link searchWithNotices} it never throws for a source that gave
   * nothing. A port that has it lists it in {@link listTools} under the id {@link DOMAIN_KNOWLEDGE_TOOL_ID}.
   */
  domainKnowledge?(domain: string, topic?: string, signal?: AbortSignal): Promise<KnowledgeSearchAnswer>;
  /**
   * Optional: the tools besides search that the explore, decompose and conclude agents may let the model
   * choose and call (`domain_knowledge` among them when the port offers it).
   */
  listTools?(): Promise<KnowledgeTool[]>;
  /** Optional: calls the tool `id` of {@link listTools}; throws `KNOWLEDGE_UNAVAILABLE` when it gave nothing. */
  callTool?(id: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<KnowledgeToolAnswer>;
}
