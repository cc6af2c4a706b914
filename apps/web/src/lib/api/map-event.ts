import type { PendingQuestionRecord } from './agent-types.ts';
import type { ContextItemRecord, ConversationKind, MapRecord, MessageRecord, NodeRecord } from './types.ts';

interface Sequenced {
  mapId: string;
  seq: number;
  at: string;
}

/** An event of a map's log, as the WORKSPACE_MAP_EVENTS subscription delivers it. */
export type MapEvent = Sequenced &
  (
    | { __typename: 'NodeCreated' | 'NodeConcluded'; node: NodeRecord }
    | { __typename: 'NodeUpdated'; fields: string[]; node: NodeRecord }
    | { __typename: 'NodeDeleted'; nodeIds: string[]; dependencyIds: string[] }
    | {
        __typename: 'DependencyAdded' | 'DependencyRemoved';
        nodeId: string;
        dependsOnId: string;
        dependency: { id: string };
      }
    | { __typename: 'ContextUpdated'; nodeId: string; action: 'ADDED' | 'REMOVED'; item: ContextItemRecord }
    | { __typename: 'MessagePosted'; nodeId: string; message: MessageRecord }
    | { __typename: 'ConversationCleared'; nodeId: string; conversation: ConversationKind; clearedCount: number }
    | { __typename: 'MapUpdated'; fields: string[]; map: MapRecord }
    | { __typename: 'MapDeleted'; deletedMapId: string }
    | { __typename: 'RunStarted'; runId: string; nodeId: string | null; run: { agent: string; status: string } }
    | {
        __typename: 'AgentStep';
        runId: string;
        nodeId: string | null;
        graph: string;
        step: string;
        phase: 'ENTERED' | 'LEFT';
        outcome: string | null;
      }
    | { __typename: 'AgentTokens'; runId: string; nodeId: string | null; text: string }
    | ({ __typename: 'AgentQuestion' } & Omit<PendingQuestionRecord, 'status'>)
    | { __typename: 'QuestionResolved'; requestId: string; runId: string; nodeId: string | null; status: string }
    | { __typename: 'RunFinished'; runId: string; nodeId: string | null }
    | { __typename: 'RunFailed'; runId: string; nodeId: string | null; code: string; reason: string }
  );

/** The events that carry agent activity (runs, steps, streamed text, questions). */
export type AgentEvent = Extract<
  MapEvent,
  {
    __typename:
      | 'RunStarted'
      | 'AgentStep'
      | 'AgentTokens'
      | 'AgentQuestion'
      | 'QuestionResolved'
      | 'RunFinished'
      | 'RunFailed';
  }
>;
