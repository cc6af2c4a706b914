import type { DivergentOutcome, EndedDivergentTaskStatus } from '../domain/enums.ts';
import type { DivergentSkillName } from './divergent-skills-port.ts';

/** A scored dimension of a completion evaluation. */
export interface ScoredDimension {
  score: number;
  reason: string;
}

/**
 * What a divergent session reports as it goes; the server stores each as a map event of the same type
 * (with the run's id), so the session's state can be read back from the map's log.
 */
export type DivergentProgress =
  | {
      type: 'DivergentLevelStarted';
      payload: {
        level: number;
        summaryNodeId: string;
        tasks: {
          key: string;
          nodeId: string;
          name: string;
          query: string;
          skill: DivergentSkillName;
          priority: number;
          /** The steering id of a task the person added. */
          addedId: string | null;
        }[];
        dropped: { name: string; query: string; skill: DivergentSkillName; priority: number; reason: string }[];
      };
    }
  | { type: 'DivergentTaskStarted'; payload: { level: number; key: string; nodeId: string } }
  | {
      type: 'DivergentTaskFinished';
      payload: {
        level: number;
        key: string;
        nodeId: string;
        status: EndedDivergentTaskStatus;
        reason: string | null;
      };
    }
  | {
      type: 'CompletionScored';
      payload: {
        level: number;
        nodeId: string;
        overall: number;
        threshold: number;
        completeness: ScoredDimension;
        intentMatch: ScoredDimension;
        quality: ScoredDimension;
      };
    }
  | {
      type: 'DivergentFinished';
      /** `drewOn`: keys of the finished tasks the final output drew on (see `finalSources`). */
      payload: { outcome: DivergentOutcome; level: number; finalNodeId: string | null; note: string; drewOn: string[] };
    };
