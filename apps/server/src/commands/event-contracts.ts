import { AgentStepPhase, ContextAction } from '@thinkingmap/db/enums';
import { z } from 'zod';
import { decisionSnapshot } from './decision-snapshot.ts';
import { DIVERGENT_EVENT_PAYLOADS as DIVERGENT } from './divergent-event-contracts.ts';
import {
  contextItemSnapshot,
  conversationKind,
  dependencySnapshot,
  mapSnapshot,
  messageSnapshot,
  nodeSnapshot,
  questionSnapshot,
  runSnapshot,
} from './event-snapshots.ts';
import { propertyOf } from './input.ts';
import { nodeArchive } from './node-archive.ts';
import { suggestionSnapshot } from './suggestion-snapshot.ts';

/** An old payload (a JSON object) turned into the next version's shape; the current schema checks the result. */
type Upgrade = (payload: Record<string, unknown>) => Record<string, unknown>;

/** One event type's contract: its current payload version and schema, and how each older version moves up one. */
export interface EventContract<S extends z.ZodType = z.ZodType> {
  version: number;
  payload: S;
  /** `upgrades[n]` turns a version-n payload into version n + 1. */
  upgrades: Readonly<Record<number, Upgrade>>;
}

function contract<S extends z.ZodType>(version: number, payload: S, upgrades: Record<number, Upgrade> = {}) {
  return { version, payload, upgrades } satisfies EventContract<S>;
}

/** A stored value that should be an object, as one (anything else reads as empty). */
const objectIn = (value: unknown): object => (typeof value === 'object' && value !== null ? value : {});

// Version 1 of the row-carrying events stored whole database rows (dates already ISO strings): the snapshot's
// fields are picked out of them (a field the row did not have yet becomes null), then parsed as the contract.
const wholeRow =
  (field: string, snapshot: z.ZodObject): Upgrade =>
  (payload) => {
    const row = payload[field];
    const picked = Object.keys(snapshot.shape).map((key) => [key, propertyOf(row, key) ?? null]);
    return { ...payload, [field]: Object.fromEntries(picked) };
  };

const nodePayload = z.object({ node: nodeSnapshot });
const runPayload = z.object({ run: runSnapshot });
const questionPayload = z.object({ question: questionSnapshot });
const dependencyPayload = z.object({ dependency: dependencySnapshot });
// Version 2 node snapshots came before conclusions could go out of date: theirs was current.
const withoutStaleness: Upgrade = (payload) => ({
  ...payload,
  node: {
    ...objectIn(payload.node),
    staleReason: null,
    staleSourceId: null,
    staleSourceQuestion: null,
    staleSince: null,
  },
});
const fromNodeRow = { 1: wholeRow('node', nodeSnapshot), 2: withoutStaleness };
// Version 2 run snapshots came before runs could be forked: theirs was not.
const withoutFork: Upgrade = (payload) => ({
  ...payload,
  run: { ...objectIn(payload.run), forkedFromRunId: null, forkedFromStep: null },
});
// Version 3 run snapshots came before token counts could be estimated: theirs were reported.
const withoutEstimate: Upgrade = (payload) => ({
  ...payload,
  run: { ...objectIn(payload.run), tokensEstimated: false },
});
const fromRunRow = { 1: wholeRow('run', runSnapshot), 2: withoutFork, 3: withoutEstimate };
const fromQuestionRow = { 1: wholeRow('question', questionSnapshot) };
const fromDependencyRow = { 1: wholeRow('dependency', dependencySnapshot) };
// Version 1 steps came before parallel branches were told apart: theirs was none.
const withoutBranch: Upgrade = (payload) => ({ ...payload, branch: null });
// Version 1 deletions kept nothing of what they removed: a node they deleted comes back with empty conversations.
const archivedNothing: Upgrade = (payload) => ({ ...payload, archive: [] });

/**
 * Every event type's payload contract. A stored event records its type's version; reading it upgrades older
 * payloads step by step and parses the result, so replay always returns the current shape. Changing what a
 * type carries means: bump its version, add the upgrade from the previous one, keep the GraphQL contract.
 */
export const EVENT_CONTRACTS = {
  MapCreated: contract(1, z.object({ map: mapSnapshot })),
  MapUpdated: contract(2, z.object({ map: mapSnapshot, fields: z.array(z.string()) }), {
    1: wholeRow('map', mapSnapshot),
  }),
  MapDeleted: contract(1, z.object({ mapId: z.string() })),
  NodeCreated: contract(3, nodePayload, fromNodeRow),
  NodeUpdated: contract(3, nodePayload.extend({ fields: z.array(z.string()) }), fromNodeRow),
  /**
   * Nodes and their dependencies were deleted. The log's row also keeps `archive`, their conversations and
   * context items (one per node), which an undo or restore puts back; what listeners get leaves it out
   * (`forListeners`), so `archive` is absent there.
   */
  NodeDeleted: contract(
    2,
    z.object({
      nodeIds: z.array(z.string()),
      dependencyIds: z.array(z.string()),
      archive: z.array(nodeArchive).optional(),
    }),
    { 1: archivedNothing },
  ),
  NodeConcluded: contract(3, nodePayload, fromNodeRow),
  /** A concluded node's conclusion went out of date; the node carries why (`staleReason`) and what changed. */
  NodeStale: contract(1, nodePayload),
  DependencyAdded: contract(2, dependencyPayload, fromDependencyRow),
  DependencyRemoved: contract(2, dependencyPayload, fromDependencyRow),
  ContextUpdated: contract(
    2,
    z.object({ nodeId: z.string(), action: z.enum(ContextAction), item: contextItemSnapshot }),
    { 1: wholeRow('item', contextItemSnapshot) },
  ),
  MessagePosted: contract(2, z.object({ nodeId: z.string(), message: messageSnapshot }), {
    1: wholeRow('message', messageSnapshot),
  }),
  /**
   * An undo, redo or restore hid messages of one conversation or showed them again: each as it is now (`deletedAt`
   * set: hidden, kept as a cleared message is; null: shown again).
   */
  MessagesChanged: contract(
    1,
    z.object({ nodeId: z.string(), conversationId: z.string(), messages: z.array(messageSnapshot) }),
  ),
  ConversationCleared: contract(
    1,
    z.object({ nodeId: z.string(), conversationId: z.string(), kind: conversationKind, clearedCount: z.number() }),
  ),
  RunStarted: contract(4, runPayload, fromRunRow),
  AgentStep: contract(
    2,
    z.object({
      runId: z.string(),
      graph: z.string(),
      nodeId: z.string().nullable(),
      step: z.string(),
      /** The parallel branch the step ran as (a divergent task's key), null for a step that runs once at a time. */
      branch: z.string().nullable(),
      phase: z.enum(AgentStepPhase),
      outcome: z.string().nullable(),
      durationMs: z.number().nullable(),
    }),
    { 1: withoutBranch },
  ),
  AgentQuestion: contract(2, questionPayload, fromQuestionRow),
  QuestionResolved: contract(2, questionPayload, fromQuestionRow),
  AgentTokens: contract(1, z.object({ runId: z.string(), nodeId: z.string().nullable(), text: z.string() })),
  RunFinished: contract(4, runPayload, fromRunRow),
  RunFailed: contract(4, runPayload.extend({ code: z.string(), reason: z.string() }), fromRunRow),
  /** A run was accepted on a node with open dependencies; it starts by itself (RunStarted) when they conclude. */
  RunWaitingForDependencies: contract(
    3,
    runPayload.extend({ waitingFor: z.array(z.object({ id: z.string(), question: z.string() })) }),
    { 1: withoutFork, 2: withoutEstimate },
  ),
  /** A run decided something about a node (intent, strategy, sub-questions, …), with why and who decided. */
  DecisionRecorded: contract(1, z.object({ decision: decisionSnapshot })),
  DivergentLevelStarted: contract(1, DIVERGENT.DivergentLevelStarted),
  DivergentTaskStarted: contract(1, DIVERGENT.DivergentTaskStarted),
  DivergentTaskFinished: contract(1, DIVERGENT.DivergentTaskFinished),
  CompletionScored: contract(1, DIVERGENT.CompletionScored),
  // Version 1 came before the final output's sources were checked: what it drew on was not recorded.
  DivergentFinished: contract(2, DIVERGENT.DivergentFinished, { 1: (payload) => ({ ...payload, drewOn: [] }) }),
  DivergentSteered: contract(1, DIVERGENT.DivergentSteered),
  /** Something of a consultation changed; `change` says what, `targetId` which message or record, `text` a line. */
  ConsultationChanged: contract(
    1,
    z.object({
      consultationId: z.string(),
      change: z.enum([
        'STARTED',
        'MESSAGE',
        'PLAN',
        'LOG',
        'RECORD_ADDED',
        'RECORD_UPDATED',
        'RECORD_DELETED',
        'NOTE_WRITTEN',
        'COMPRESSED',
        'TURN_STARTED',
        'TURN_ENDED',
        'UNDERSTANDING',
        'UNDERSTOOD',
        'PROPOSED',
        'STRATEGY',
      ]),
      targetId: z.string().nullable(),
      text: z.string().nullable(),
    }),
  ),
  /** A critic run posted a suggestion for the person to accept or dismiss. */
  SuggestionPosted: contract(1, z.object({ suggestion: suggestionSnapshot })),
  /** The person accepted (its change was made in the same change) or dismissed a suggestion. */
  SuggestionResolved: contract(1, z.object({ suggestion: suggestionSnapshot })),
  /** A piece of the front agent's reply as it is written. */
  ConsultationTokens: contract(1, z.object({ consultationId: z.string(), text: z.string() })),
};

/** Every event type name. */
export type MapEventType = keyof typeof EVENT_CONTRACTS;

/** What each event type carries, in its current version. */
export type MapEventPayloads = { [K in MapEventType]: z.infer<(typeof EVENT_CONTRACTS)[K]['payload']> };

/** A stored payload that no upgrade or schema accepts: the log holds something this server cannot read. */
export class EventContractError extends Error {
  constructor(
    readonly event: { mapId: string; seq: number; type: string; version: number },
    reason: string,
  ) {
    super(`event ${event.seq} of map ${event.mapId} (${event.type} v${event.version}) cannot be read: ${reason}`);
    this.name = 'EventContractError';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether `type` names an event type this server knows. */
export function isEventType(type: string): type is MapEventType {
  return Object.hasOwn(EVENT_CONTRACTS, type);
}

/**
 * Reads a stored payload: upgrades it from its version to the type's current one and parses it against the
 * current schema (unknown fields are dropped). Throws {@link EventContractError} when it cannot.
 */
export function decodePayload<K extends MapEventType>(
  event: { mapId: string; seq: number; type: K; version: number },
  stored: unknown,
): MapEventPayloads[K] {
  if (!isEventType(event.type)) throw new EventContractError(event, 'unknown event type');
  const { version, payload, upgrades }: EventContract = EVENT_CONTRACTS[event.type];
  if (event.version > version) throw new EventContractError(event, `newer than this server's v${version}`);
  let value = stored;
  for (let at = event.version; at < version; at++) {
    const upgrade = upgrades[at];
    if (!upgrade) throw new EventContractError(event, `no upgrade from v${at}`);
    if (!isRecord(value)) throw new EventContractError(event, 'payload is not an object');
    try {
      value = upgrade(value);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new EventContractError(event, `upgrade from v${at} failed: ${reason}`);
    }
  }
  const parsed = payload.safeParse(value);
  if (!parsed.success) throw new EventContractError(event, z.prettifyError(parsed.error));
  return parsed.data as MapEventPayloads[K];
}
