import type { MapEventType, StoredEvent } from '../commands/map-event.ts';
import { builder } from '../schema/builder.ts';
import {
  DimensionRef,
  DivergentOutcomeEnum,
  DivergentSteeringActionEnum,
  DivergentTaskStatusEnum,
} from './divergent-session.type.ts';

type EventOf<K extends MapEventType> = StoredEvent<K>;

/**
 * The divergent session's members of the MapEvent union, implementing `sequenced` (the events' interface,
 * passed in by events.type.ts, which imports this file).
 */
export function divergentEventMembers(sequenced: typeof import('../events/events.type.ts').SequencedEventRef) {
  const DivergentLevelStarted = builder.objectRef<EventOf<'DivergentLevelStarted'>>('DivergentLevelStarted').implement({
    description:
      'A divergent level’s task nodes were created; `dropped` lists proposed tasks that do not run, and why.',
    interfaces: [sequenced],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.runId }),
      nodeId: t.id({
        nullable: true,
        description: 'The summary the tasks were planned from.',
        resolve: (e) => e.payload.summaryNodeId,
      }),
      level: t.int({ resolve: (e) => e.payload.level }),
      taskNodeIds: t.idList({ resolve: (e) => e.payload.tasks.map((task) => task.nodeId) }),
      tasks: t.field({ type: 'JSON', resolve: (e) => e.payload.tasks }),
      dropped: t.field({ type: 'JSON', resolve: (e) => e.payload.dropped }),
    }),
  });

  const taskEvent = <K extends 'DivergentTaskStarted' | 'DivergentTaskFinished'>(name: K, description: string) =>
    builder.objectRef<EventOf<K>>(name).implement({
      description,
      interfaces: [sequenced],
      fields: (t) => ({
        runId: t.id({ resolve: (e) => e.payload.runId }),
        nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
        level: t.int({ resolve: (e) => e.payload.level }),
        key: t.string({ resolve: (e) => e.payload.key }),
        status: t.field({
          type: DivergentTaskStatusEnum,
          nullable: true,
          resolve: (e) => ('status' in e.payload ? e.payload.status : null),
        }),
        reason: t.string({ nullable: true, resolve: (e) => ('reason' in e.payload ? e.payload.reason : null) }),
      }),
    });

  const DivergentTaskStarted = taskEvent('DivergentTaskStarted', 'A divergent task started running.');
  const DivergentTaskFinished = taskEvent(
    'DivergentTaskFinished',
    'A divergent task ended: DONE, FAILED with the reason, or SKIPPED (by the person, or the session stopped).',
  );

  const CompletionScored = builder.objectRef<EventOf<'CompletionScored'>>('CompletionScored').implement({
    description:
      'A divergent summary was scored on three dimensions, each with a reason; `overall` is weighted in code.',
    interfaces: [sequenced],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.runId }),
      nodeId: t.id({ nullable: true, resolve: (e) => e.payload.nodeId }),
      level: t.int({ resolve: (e) => e.payload.level }),
      overall: t.float({ resolve: (e) => e.payload.overall }),
      threshold: t.float({ resolve: (e) => e.payload.threshold }),
      completeness: t.field({ type: DimensionRef, resolve: (e) => e.payload.completeness }),
      intentMatch: t.field({ type: DimensionRef, resolve: (e) => e.payload.intentMatch }),
      quality: t.field({ type: DimensionRef, resolve: (e) => e.payload.quality }),
    }),
  });

  const DivergentFinished = builder.objectRef<EventOf<'DivergentFinished'>>('DivergentFinished').implement({
    description: 'A divergent session ended: FINISHED with its final output, or ALL_FAILED; `note` says how.',
    interfaces: [sequenced],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.runId }),
      nodeId: t.id({ nullable: true, description: 'The final output node.', resolve: (e) => e.payload.finalNodeId }),
      level: t.int({ resolve: (e) => e.payload.level }),
      outcome: t.field({ type: DivergentOutcomeEnum, resolve: (e) => e.payload.outcome }),
      note: t.string({ resolve: (e) => e.payload.note }),
      drewOn: t.stringList({
        description: 'Keys of the finished tasks the final output drew on (its Sources section lists them).',
        resolve: (e) => e.payload.drewOn,
      }),
    }),
  });

  const PlannedTaskRef = builder
    .objectRef<NonNullable<EventOf<'DivergentSteered'>['payload']['task']>>('DivergentPlannedTask')
    .implement({
      fields: (t) => ({
        name: t.exposeString('name'),
        query: t.exposeString('query'),
        skill: t.exposeString('skill'),
        priority: t.exposeInt('priority'),
      }),
    });

  const DivergentSteered = builder.objectRef<EventOf<'DivergentSteered'>>('DivergentSteered').implement({
    description:
      'The person steered a divergent session: STOP, SKIP_TASK (`taskKey`), ADD_TASK (`task`), SET_THRESHOLD ' +
      '(`threshold`) or ADD_FEEDBACK (`feedback`).',
    interfaces: [sequenced],
    fields: (t) => ({
      runId: t.id({ resolve: (e) => e.payload.runId }),
      steeringId: t.id({ resolve: (e) => e.payload.steeringId }),
      action: t.field({ type: DivergentSteeringActionEnum, resolve: (e) => e.payload.action }),
      taskKey: t.string({ nullable: true, resolve: (e) => e.payload.taskKey }),
      task: t.field({ type: PlannedTaskRef, nullable: true, resolve: (e) => e.payload.task }),
      threshold: t.float({ nullable: true, resolve: (e) => e.payload.threshold }),
      feedback: t.string({ nullable: true, resolve: (e) => e.payload.feedback }),
    }),
  });

  return {
    DivergentLevelStarted,
    DivergentTaskStarted,
    DivergentTaskFinished,
    CompletionScored,
    DivergentFinished,
    DivergentSteered,
  } as const;
}
