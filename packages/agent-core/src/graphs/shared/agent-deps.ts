import type { EventPort } from '../../ports/event-port.ts';
import type { KnowledgePort } from '../../ports/knowledge-port.ts';
import type { ModelPort } from '../../ports/model-port.ts';
import type { StorePort } from '../../ports/store-port.ts';

/** What every graph factory takes: the ports it talks through, and its limits. */
export interface AgentDeps {
  model: ModelPort;
  store: StorePort;
  events: EventPort;
  /** Optional: without it, explore posts a notice and goes back to intent recognition. */
  knowledge?: KnowledgePort;
  /** Questions one run may ask the person before it goes on with what it has (default 3). */
  maxQuestions?: number;
  /** Knowledge searches per run before explore is no longer offered (default 2). */
  maxExplorations?: number;
}
