import type { DivergentSkills } from '../../ports/divergent-skills-port.ts';
import type { DivergentSteeringPort } from '../../ports/divergent-steering-port.ts';
import type { DivergentStorePort } from '../../ports/divergent-store-port.ts';
import type { AgentDeps } from '../shared/agent-deps.ts';

/** What the divergent graph takes: the agent ports, a store that writes divergent nodes, and the skills. */
export interface DivergentDeps extends AgentDeps {
  store: DivergentStorePort;
  skills: DivergentSkills;
  /** The person's steering while the session runs (none when absent). */
  steering?: DivergentSteeringPort;
}
