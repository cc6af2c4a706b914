import type { DivergentRole } from '../domain/enums.ts';
import type { NodeRecord } from '../domain/records.ts';
import type { CreateNodeInput, Idempotent, StorePort } from './store-port.ts';

/** Input of {@link DivergentStorePort.createDivergentNode}: a node with its divergent role and level. */
export interface CreateDivergentNodeInput extends CreateNodeInput {
  role: DivergentRole;
  level: number;
}

/**
 * The store divergent exploration writes through: the thinking map's store plus the divergent fields of a
 * node (role, level, completion score). Like every store write each is a command with an event.
 */
export interface DivergentStorePort extends StorePort {
  /** Creates a summary, task or final-output node under `parentId`. */
  createDivergentNode(input: CreateDivergentNodeInput): Promise<NodeRecord>;
  /** Stores the completion score (in [0, 1]) on a summary node. */
  recordCompletionScore(nodeId: string, score: number, options?: Idempotent): Promise<void>;
}
