import { AgentError } from '../errors/agent-error.ts';
import type {
  KnowledgePort,
  KnowledgeResult,
  KnowledgeSearchAnswer,
  KnowledgeSearchOptions,
} from '../ports/knowledge-port.ts';

/** Where an operator's HTTP search API is and how to call it. */
export interface HttpWebSearchConfig {
  /**
   * The search endpoint, answering `GET <url>?q=<query>&format=json` with `{ results: [{ title, url, content }] }`
   * (the SearXNG JSON API; `snippet` or `description` are read as the content too).
   */
  url: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** How long one search may take (default 10 s). */
  timeoutMs?: number;
}

type Hit = { title?: unknown; url?: unknown; content?: unknown; snippet?: unknown; description?: unknown };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Web search through an HTTP search API the operator configured (divergent `webSearch`): the hits with their
 * links as sources. A source that cannot be reached or answers garbage is a notice, never a crash.
 */
export class HttpWebSearch implements KnowledgePort {
  readonly name = 'web search';

  constructor(private readonly config: HttpWebSearchConfig) {}

  async search(query: string, options: KnowledgeSearchOptions = {}): Promise<KnowledgeResult[]> {
    const answer = await this.searchWithNotices(query, options);
    if (!answer.results.length && answer.notices.length)
      throw new AgentError('KNOWLEDGE_UNAVAILABLE', answer.notices.map((n) => n.message).join('; '));
    return answer.results;
  }

  async searchWithNotices(query: string, options: KnowledgeSearchOptions = {}): Promise<KnowledgeSearchAnswer> {
    const url = new URL(this.config.url);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const timeout = AbortSignal.timeout(this.config.timeoutMs ?? 10_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let body: unknown;
    try {
      const response = await fetch(url, { headers, signal });
      if (!response.ok) return notice(`${this.name}: the search service answered ${response.status}`);
      body = await response.json();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const why = timeout.aborted ? 'timed out' : error instanceof Error ? error.message : String(error);
      return notice(`${this.name}: the search service could not be reached (${why})`);
    }
    const hits = typeof body === 'object' && body !== null && 'results' in body ? body.results : undefined;
    if (!Array.isArray(hits)) return notice(`${this.name}: the search service answered no result list`);
    const results = hits
      .map((item: unknown): KnowledgeResult => {
        const hit: Hit = typeof item === 'object' && item !== null ? item : {};
        const title = text(hit.title);
        const link = text(hit.url);
        return {
          title,
          content: text(hit.content) || text(hit.snippet) || text(hit.description),
          sources: link || title ? [{ title: title || link, ...(link ? { uri: link } : {}) }] : [],
        };
      })
      .filter((r) => r.content || r.title)
      .slice(0, options.maxResults ?? 5);
    return { results, notices: [] };
  }
}

const notice = (message: string): KnowledgeSearchAnswer => ({ results: [], notices: [{ message }] });
