import { AgentStepPhase, ContextAction } from '@thinkingmap/db/enums';
import { ValidationError } from '../commands/domain-errors.ts';
import { readEvents } from '../commands/event-log.ts';
import type { MapEvent, MapEventType, StoredEvent } from '../commands/map-event.ts';
import { divergentEventMembers } from '../divergent/divergent-events.type.ts';
import { assertMapAccess } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import { ConversationKindEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import {
  ContextItemSnapshotRef,
  DecisionSnapshotRef,
  DependencySnapshotRef,
  MapSnapshotRef,
  MessageSnapshotRef,
  NodeSnapshotRef,
  RunSnapshotRef,
  SuggestionSnapshotRef,
} from '../schema/snapshot-refs.ts';

type EventOf<K extends MapEventType> = StoredEvent<K>;

/** Fields every event has: where it belongs, its place in the map's sequence, and when it happened. */
// Fields that share a name across the union's members share a type too (GraphQL requires it of
// selections on the union): every `nodeId` is a nullable ID, since agent events may have none.
export const SequencedEventRef = builder
  .interfaceRef<{ mapId: string; seq: number; createdAt: string }>('SequencedEvent')
  .implement({
    fields: (t) => ({
      mapId: t.exposeID('mapId'),
      seq: t.exposeInt('seq', { description: 'Consecutive per map; resume a subscription with `after: seq`.' }),
      at: t.field({ type: 'DateTime', resolve: (event) => event.createdAt }),
    }),
  });

const nodeField = <K extends 'NodeCreated' | 'NodeUpdated' | 'NodeConcluded' | 'NodeStale'>(
  name: K,
  description: string,
  withFields: boolean,
) =>
  builder.objectRef<EventOf<K>>(name).implement({
    description,
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      node: t.field({ type: NodeSnapshotRef, resolve: (event) => event.payload.node }),
      ...(withFields
        ? { fields: t.stringList({ resolve: (event) => ('fields' in event.payload ? event.payload.fields : []) }) }
        : {}),
    }),
  });

const NodeCreated = nodeField('NodeCreated', 'A node was added.', false);
const NodeUpdated = nodeField('NodeUpdated', 'A node changed; `fields` names what.', true);
const NodeConcluded = nodeField('NodeConcluded', 'A node was concluded.', false);
const NodeStale = nodeField(
  'NodeStale',
  "A node's conclusion went out of date; its `staleReason` and `staleSourceQuestion` say why.",
  false,
);

const NodeDeleted = builder.objectRef<EventOf<'NodeDeleted'>>('NodeDeleted').implement({
  description: 'A node and its subtree were deleted, with their dependencies.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    nodeIds: t.idList({ resolve: (e) => e.payload.nodeIds }),
    dependencyIds: t.idList({ resolve: (e) => e.payload.dependencyIds }),
  }),
});

const dependencyEvent = <K extends 'DependencyAdded' | 'DependencyRemoved'>(name: K, description: string) =>
  builder.objectRef<EventOf<K>>(name).implement({
    description,
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      dependency: t.field({ type: DependencySnapshotRef, resolve: (e) => e.payload.dependency }),
      nodeId: t.id({ nullable: true, resolve: (e) => e.payload.dependency.nodeId }),
      dependsOnId: t.id({ resolve: (e) => e.payload.dependency.dependsOnId }),
    }),
  });

const DependencyAdded = dependencyEvent('DependencyAdded', 'A dependency was added.');
const DependencyRemoved = dependencyEvent('DependencyRemoved', 'A dependency was removed (its nodes may still exist).');

const ContextActionEnum = builder.enumType(ContextAction, { name: 'ContextAction' });

const ContextUpdated = builder.objectRef<EventOf<'ContextUpdated'>>('ContextUpdated').implement({
  description: "A node's context items changed.",
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
    action: t.field({ type: ContextActionEnum, resolve: (e) => e.payload.action }),
    item: t.field({ type: ContextItemSnapshotRef, resolve: (e) => e.payload.item }),
  }),
});

const MessagePosted = builder.objectRef<EventOf<'MessagePosted'>>('MessagePosted').implement({
  description: 'A message was posted to a conversation.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
    message: t.field({ type: MessageSnapshotRef, resolve: (e) => e.payload.message }),
  }),
});

const MessagesChanged = builder.objectRef<EventOf<'MessagesChanged'>>('MessagesChanged').implement({
  description:
    'An undo, redo or restore hid messages of a conversation (`deletedAt` set; kept, as cleared ones are) or showed ' +
    'them again (`deletedAt` null).',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
    conversationId: t.id({ resolve: (e) => e.payload.conversationId }),
    messages: t.field({ type: [MessageSnapshotRef], resolve: (e) => e.payload.messages }),
  }),
});

const ConversationCleared = builder.objectRef<EventOf<'ConversationCleared'>>('ConversationCleared').implement({
  description: 'A conversation was cleared (its messages are kept, marked deleted).',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
    conversationId: t.id({ resolve: (e) => e.payload.conversationId }),
    conversation: t.field({ type: ConversationKindEnum, resolve: (e) => e.payload.kind }),
    clearedCount: t.int({ resolve: (e) => e.payload.clearedCount }),
  }),
});

const MapCreated = builder.objectRef<EventOf<'MapCreated'>>('MapCreated').implement({
  description: "The map was created; the first event of every map's log.",
  interfaces: [SequencedEventRef],
  fields: (t) => ({ map: t.field({ type: MapSnapshotRef, resolve: (e) => e.payload.map }) }),
});

const MapUpdated = builder.objectRef<EventOf<'MapUpdated'>>('MapUpdated').implement({
  description: "The map's own fields changed.",
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    map: t.field({ type: MapSnapshotRef, resolve: (e) => e.payload.map }),
    fields: t.stringList({ resolve: (e) => e.payload.fields }),
  }),
});

const MapDeleted = builder.objectRef<EventOf<'MapDeleted'>>('MapDeleted').implement({
  description: 'The map was deleted; the stream ends after this event.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({ deletedMapId: t.id({ resolve: (e) => e.payload.mapId }) }),
});

const runEvent = <K extends 'RunStarted' | 'RunFinished'>(name: K, description: string) =>
  builder.objectRef<EventOf<K>>(name).implement({
    description,
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.run.id }),
      nodeId: t.id({ nullable: true, resolve: (e) => e.payload.run.nodeId }),
      run: t.field({ type: RunSnapshotRef, resolve: (e) => e.payload.run }),
    }),
  });

const RunStarted = runEvent('RunStarted', 'An agent run started (a waiting one: when its dependencies concluded).');
const RunFinished = runEvent('RunFinished', 'An agent run finished; `run` carries its token usage.');

const RunFailed = builder.objectRef<EventOf<'RunFailed'>>('RunFailed').implement({
  description: 'An agent run failed or was cancelled; `reason` says why, `run.raw` keeps unparseable output.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    runId: t.id({ resolve: (e) => e.payload.run.id }),
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.run.nodeId }),
    code: t.string({ resolve: (e) => e.payload.code }),
    reason: t.string({ resolve: (e) => e.payload.reason }),
    run: t.field({ type: RunSnapshotRef, resolve: (e) => e.payload.run }),
  }),
});

const RunWaitingForDependencies = builder
  .objectRef<EventOf<'RunWaitingForDependencies'>>('RunWaitingForDependencies')
  .implement({
    description:
      'A run was accepted on a node whose dependencies are open; it starts by itself (RunStarted) when the last ' +
      'one concludes, or ends when cancelled. `waitingFor` names them as they were then.',
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.run.id }),
      nodeId: t.id({ nullable: true, resolve: (e) => e.payload.run.nodeId }),
      run: t.field({ type: RunSnapshotRef, resolve: (e) => e.payload.run }),
      waitingForIds: t.idList({ resolve: (e) => e.payload.waitingFor.map((d) => d.id) }),
      waitingForQuestions: t.stringList({ resolve: (e) => e.payload.waitingFor.map((d) => d.question) }),
    }),
  });

const DecisionRecorded = builder.objectRef<EventOf<'DecisionRecorded'>>('DecisionRecorded').implement({
  description: 'A run decided something about a node (intent, strategy, sub-questions, …), with why and who decided.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    runId: t.id({ resolve: (e) => e.payload.decision.runId }),
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.decision.nodeId }),
    decision: t.field({ type: DecisionSnapshotRef, resolve: (e) => e.payload.decision }),
  }),
});

const suggestionEvent = <K extends 'SuggestionPosted' | 'SuggestionResolved'>(name: K, description: string) =>
  builder.objectRef<EventOf<K>>(name).implement({
    description,
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.suggestion.runId }),
      suggestion: t.field({ type: SuggestionSnapshotRef, resolve: (e) => e.payload.suggestion }),
    }),
  });

const SuggestionPosted = suggestionEvent(
  'SuggestionPosted',
  'A critic run posted a suggestion (see criticSuggestions).',
);
const SuggestionResolved = suggestionEvent(
  'SuggestionResolved',
  'The person accepted a suggestion (its change is in the same change) or dismissed it.',
);

const StepPhase = builder.enumType(AgentStepPhase, { name: 'AgentStepPhase' });

const AgentStep = builder.objectRef<EventOf<'AgentStep'>>('AgentStep').implement({
  description: 'An agent entered or left a step of its graph (recognizeIntent, proposeSubQuestions, …).',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    runId: t.id({ resolve: (e) => e.payload.runId }),
    graph: t.string({ resolve: (e) => e.payload.graph }),
    nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
    step: t.string({ resolve: (e) => e.payload.step }),
    branch: t.string({
      nullable: true,
      resolve: (e) => e.payload.branch,
      description:
        'The parallel branch the step runs as (a divergent task’s key, `L1.T2`): the tasks of a level run the ' +
        'same step at once, each entering and leaving as its own branch. Null for a step that runs once.',
    }),
    phase: t.field({ type: StepPhase, resolve: (e) => e.payload.phase }),
    outcome: t.string({
      nullable: true,
      resolve: (e) => e.payload.outcome,
      description: '`done`, `interrupted` or `failed` when left.',
    }),
    durationMs: t.int({ nullable: true, resolve: (e) => e.payload.durationMs }),
  }),
});

const AgentTokens = builder.objectRef<EventOf<'AgentTokens'>>('AgentTokens').implement({
  description: 'A piece of text the agent is writing, as it streams.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    runId: t.id({ resolve: (e) => e.payload.runId }),
    nodeId: t.id({
      nullable: true,
      resolve: (e) => e.payload.nodeId,
      description:
        'The node this text is written for (null: the map itself). A run writing several nodes at once — the ' +
        'parallel tasks of a divergent level — sends each its own events, never one text mixing them.',
    }),
    text: t.string({ resolve: (e) => e.payload.text }),
  }),
});

const questionEvent = <K extends 'AgentQuestion' | 'QuestionResolved'>(name: K, description: string) =>
  builder.objectRef<EventOf<K>>(name).implement({
    description,
    interfaces: [SequencedEventRef],
    fields: (t) => ({
      requestId: t.id({ resolve: (e) => e.payload.question.id }),
      runId: t.id({ resolve: (e) => e.payload.question.runId }),
      nodeId: t.id({ nullable: true, resolve: (e) => e.payload.question.nodeId }),
      kind: t.string({ resolve: (e) => e.payload.question.kind }),
      question: t.string({ resolve: (e) => e.payload.question.question }),
      context: t.field({ type: 'JSON', resolve: (e) => e.payload.question.context }),
      status: t.string({ resolve: (e) => e.payload.question.status }),
      expiresAt: t.field({ type: 'DateTime', resolve: (e) => e.payload.question.expiresAt }),
    }),
  });

const AgentQuestion = questionEvent(
  'AgentQuestion',
  'A run paused with a question for the person; answer with replyToAgent(requestId).',
);
const QuestionResolved = questionEvent('QuestionResolved', 'A question was answered, expired or cancelled.');

const ConsultationChanged = builder.objectRef<EventOf<'ConsultationChanged'>>('ConsultationChanged').implement({
  description:
    'Something of a consultation changed: `change` says what (MESSAGE, PLAN, LOG, RECORD_ADDED, NOTE_WRITTEN, TURN_ENDED, UNDERSTANDING — its map was created and waits for the person to confirm the understanding, `targetId` the run —, UNDERSTOOD, PROPOSED — its planner proposed sub-questions, `targetId` the run waiting at review —, STRATEGY — `line` the new strategy —, …), `targetId` the message or record, `line` a line to show.',
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    consultationId: t.id({ resolve: (e) => e.payload.consultationId }),
    change: t.string({ resolve: (e) => e.payload.change }),
    targetId: t.id({ nullable: true, resolve: (e) => e.payload.targetId }),
    line: t.string({ nullable: true, resolve: (e) => e.payload.text }),
  }),
});

const ConsultationTokens = builder.objectRef<EventOf<'ConsultationTokens'>>('ConsultationTokens').implement({
  description: "A piece of the consultation's front agent reply, as it is written.",
  interfaces: [SequencedEventRef],
  fields: (t) => ({
    consultationId: t.id({ resolve: (e) => e.payload.consultationId }),
    text: t.string({ resolve: (e) => e.payload.text }),
  }),
});

const MEMBERS = {
  NodeCreated,
  NodeUpdated,
  NodeDeleted,
  NodeConcluded,
  NodeStale,
  DependencyAdded,
  DependencyRemoved,
  ContextUpdated,
  MessagePosted,
  MessagesChanged,
  ConversationCleared,
  MapCreated,
  MapUpdated,
  MapDeleted,
  RunStarted,
  AgentStep,
  AgentQuestion,
  QuestionResolved,
  AgentTokens,
  RunFinished,
  RunFailed,
  RunWaitingForDependencies,
  DecisionRecorded,
  SuggestionPosted,
  SuggestionResolved,
  ...divergentEventMembers(SequencedEventRef),
  ConsultationChanged,
  ConsultationTokens,
} as const;

/** Every event of a map. New agent events join this union. */
export const MapEventUnion = builder.unionType('MapEvent', {
  types: Object.values(MEMBERS),
  resolveType: (event) => event.type,
});

const EventPageRef = builder
  .objectRef<{ events: MapEvent[]; hasMore: boolean; lastSeq: number }>('EventPage')
  .implement({
    fields: (t) => ({
      events: t.field({ type: [MapEventUnion], resolve: (page) => page.events }),
      hasMore: t.exposeBoolean('hasMore'),
      lastSeq: t.exposeInt('lastSeq', { description: 'Sequence number of the last event in this page (or `after`).' }),
    }),
  });

builder.queryField('events', (t) =>
  t.field({
    type: EventPageRef,
    description: 'Stored events of a map with `seq > after`, oldest first.',
    errors: { types: ACCESS_ERRORS },
    args: {
      mapId: t.arg.id({ required: true }),
      after: t.arg.int({ defaultValue: 0 }),
      first: t.arg.int({ defaultValue: 100 }),
    },
    resolve: async (_root, args, ctx) => {
      const mapId = String(args.mapId);
      await assertMapAccess(ctx, mapId);
      const after = args.after ?? 0;
      const first = args.first ?? 100;
      if (after < 0) throw new ValidationError('after', 'must not be negative');
      if (first < 1 || first > 1000) throw new ValidationError('first', 'must be between 1 and 1000');
      const events = await readEvents(ctx.db.read, mapId, after, first + 1);
      const page = events.slice(0, first);
      return { events: page, hasMore: events.length > first, lastSeq: page.at(-1)?.seq ?? after };
    },
  }),
);
