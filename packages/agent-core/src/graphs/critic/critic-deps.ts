import type { CriticStorePort } from '../../ports/critic-store-port.ts';
import type { AgentDeps } from '../shared/agent-deps.ts';

/** What the critic graph takes: the agent ports and a store that reads a scope and posts suggestions. */
export interface CriticDeps extends AgentDeps {
  critic: CriticStorePort;
}
