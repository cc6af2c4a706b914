import { VersionConflictError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS, ErrorInterface } from '../schema/errors.type.ts';
import {
  ConsultationRecordKindEnum,
  ConsultationRecordRef,
  ConsultationRef,
  ConsultationStrategyEnum,
} from './consultation.type.ts';
import {
  deleteConsultationRecord,
  setConsultationStrategy,
  updateConsultationRecord,
} from './consultation-commands.ts';
import { ConsultationBusyConflict } from './consultation-service.ts';

builder.objectType(ConsultationBusyConflict, {
  name: 'ConsultationBusyError',
  description: 'The consultation refuses messages while it answers (strategy REJECT): send again when it is done.',
  interfaces: [ErrorInterface],
});

const StartConsultationInput = builder.inputType('StartConsultationInput', {
  fields: (t) => ({
    mapId: t.id({
      description:
        'The map to consult on. Without it the consultation starts NEEDS_PROBLEM: its first message is the problem, ' +
        'a map is created with it and its understanding waits for the person (`understandingQuestion`).',
    }),
    strategy: t.field({ type: ConsultationStrategyEnum, description: 'INTERRUPT when omitted.' }),
  }),
});

builder.mutationField('startConsultation', (t) =>
  t.field({
    type: ConsultationRef,
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: StartConsultationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.consultations.start(ctx.commands, {
        mapId: input.mapId ?? undefined,
        strategy: input.strategy ?? undefined,
      }),
  }),
);

const SendConsultationMessageInput = builder.inputType('SendConsultationMessageInput', {
  fields: (t) => ({ consultationId: t.id({ required: true }), text: t.string({ required: true }) }),
});

const SentConsultationMessageRef = builder
  .objectRef<{ consultationId: string; messageId: string }>('SentConsultationMessage')
  .implement({
    description: 'The stored message; the answer follows on the map feed (ConsultationTokens, ConsultationChanged).',
    fields: (t) => ({
      messageId: t.exposeID('messageId'),
      consultation: t.prismaField({
        type: 'Consultation',
        resolve: (query, sent, _args, ctx) =>
          ctx.db.read.consultation.findUniqueOrThrow({ ...query, where: { id: sent.consultationId } }),
      }),
    }),
  });

builder.mutationField('sendConsultationMessage', (t) =>
  t.field({
    type: SentConsultationMessageRef,
    errors: { types: [...ACCESS_ERRORS, ConsultationBusyConflict] },
    args: { input: t.arg({ type: SendConsultationMessageInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const sent = await ctx.consultations.send(ctx.commands, input);
      return { consultationId: String(input.consultationId), messageId: sent.message.id };
    },
  }),
);

const UpdateConsultationRecordInput = builder.inputType('UpdateConsultationRecordInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    kind: t.field({ type: ConsultationRecordKindEnum }),
    content: t.string(),
    expectedVersion: t.int(),
  }),
});

builder.mutationField('updateConsultationRecord', (t) =>
  t.field({
    type: ConsultationRecordRef,
    errors: { types: [...ACCESS_ERRORS, VersionConflictError] },
    args: { input: t.arg({ type: UpdateConsultationRecordInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      updateConsultationRecord(ctx.commands, {
        id: input.id,
        kind: input.kind ?? undefined,
        content: input.content ?? undefined,
        expectedVersion: input.expectedVersion ?? undefined,
      }),
  }),
);

const DeletedRef = builder.objectRef<{ id: string }>('DeletedConsultationRecord').implement({
  fields: (t) => ({ id: t.exposeID('id') }),
});

builder.mutationField('deleteConsultationRecord', (t) =>
  t.field({
    type: DeletedRef,
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteConsultationRecord(ctx.commands, { id: args.id }),
  }),
);

const SetConsultationStrategyInput = builder.inputType('SetConsultationStrategyInput', {
  fields: (t) => ({
    consultationId: t.id({ required: true }),
    strategy: t.field({ type: ConsultationStrategyEnum, required: true }),
  }),
});

builder.mutationField('setConsultationStrategy', (t) =>
  t.field({
    type: ConsultationRef,
    description:
      'Changes what a message sent while a turn runs does, for the messages sent from now on (a running turn goes ' +
      'on); `ConsultationChanged` STRATEGY on the map feed.',
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: SetConsultationStrategyInput, required: true }) },
    resolve: (_root, { input }, ctx) => setConsultationStrategy(ctx.commands, input),
  }),
);
