import { type Readiness, readiness } from '@thinkingmap/map-graph';
import type { NodeNeighbourhood } from '../ports/store-port.ts';

/**
 * Whether a node may be processed: ready when every sibling it depends on is COMPLETED, else blocked with
 * a reason naming the open dependencies. The same `readiness` rule the API uses (from
 * `@thinkingmap/map-graph`), so the agent and the API never disagree.
 */
export function checkDependencies(hood: Pick<NodeNeighbourhood, 'dependencies'>): Readiness {
  return readiness(hood.dependencies);
}
