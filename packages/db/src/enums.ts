/**
 * Every enumerated fact of ThinkingMap, declared once and importable without the Prisma client (this module
 * has no runtime dependency): agent-core, the server's GraphQL schema, zod inputs, MCP tool schemas and the
 * web app all take their values from here, so adding a value is one edit.
 *
 * The database enums are generated from `prisma/schema.prisma`. The facts stored as plain strings (values
 * with hyphens, which a Prisma enum cannot spell) are declared below in the same `{ NAME: value } as const`
 * shape, so `z.enum(X)`, `builder.enumType(X, …)` and `Object.values(X)` work alike on both.
 */
import { RunStatus } from '../generated/sqlite/enums.ts';

export * from '../generated/sqlite/enums.ts';

/** What kind of answer a paused run waits for (`AgentQuestion.kind`). */
export const QuestionKind = {
  /** The problem-understanding agent asks the person to confirm or correct its restatement. */
  CONFIRM_UNDERSTANDING: 'confirm-understanding',
  /** The person reviews proposed sub-questions: approve (with edits) or reject with feedback. */
  REVIEW_DECOMPOSITION: 'review-decomposition',
  /** The person reviews a drafted conclusion: accept, or ask for a revision. */
  REVIEW_CONCLUSION: 'review-conclusion',
  /** The agent lacks something only the person knows and asks for it. */
  CLARIFY: 'clarify',
} as const;
/** One of {@link QuestionKind}'s values. */
export type QuestionKind = (typeof QuestionKind)[keyof typeof QuestionKind];

/** The statuses of a run that has not ended: it works, or it waits for the person. A node has at most one. */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = [RunStatus.RUNNING, RunStatus.WAITING];

/** The agent graphs a run can execute (`AgentRun.agent`). */
export const AgentGraph = {
  /** Restates the problem until the person confirms it, then creates the root node. */
  UNDERSTAND_PROBLEM: 'understand-problem',
  /** Works on one node: context, dependencies, intent, then decomposition or conclusion. */
  PROCESS_NODE: 'process-node',
  /** A consultation turn: the front agent answers, the planner plans and writes records and notes. */
  CONSULTATION: 'consultation',
} as const;
/** One of {@link AgentGraph}'s values. */
export type AgentGraph = (typeof AgentGraph)[keyof typeof AgentGraph];
