/** Agent records as the API reports them (runs, pending questions). */

/** What kind of answer a paused run waits for. */
export type QuestionKind =
  | 'confirm-understanding'
  | 'review-decomposition'
  | 'review-conclusion'
  | 'clarify'
  | (string & {});

/** A question a paused run waits on; answered with replyToAgent / reviewDecomposition. */
export interface PendingQuestionRecord {
  requestId: string;
  runId: string;
  mapId?: string;
  nodeId: string | null;
  kind: QuestionKind;
  question: string;
  /** Why the agent asks and what it proposes: `understanding`, `proposal`, `draft`, `why`. */
  context: unknown;
  status: string;
  expiresAt?: string;
}

/** One agent run as the workspace follows it. */
export interface RunRecord {
  id: string;
  nodeId: string | null;
  agent: string;
  status: 'RUNNING' | 'WAITING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  /** The graph step running now (`proposeSubQuestions`, …), null between steps. */
  step: string | null;
  /** Text streamed by the current step so far. */
  text: string;
  error: string | null;
}

/** A proposed sub-question (review-decomposition context). */
export interface ProposedSubQuestion {
  key: string;
  question: string;
  goal: string;
  dependsOn: string[];
}
