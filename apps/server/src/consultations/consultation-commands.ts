import {
  type Consultation,
  type ConsultationMessage,
  type ConsultationMessageRole,
  type ConsultationRecord,
  ConsultationRecordKind,
  ConsultationStage,
  ConsultationStrategy,
  type Tx,
} from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ConflictError, NotFoundError, VersionConflictError } from '../commands/domain-errors.ts';
import { id, LIMITS, parseInput, text } from '../commands/input.ts';
import type { PendingEvent } from '../commands/map-event.ts';
import { assertCanChange, mutateMap } from '../commands/mutate-map.ts';
import { assertConsultationAccess } from './consultation-access.ts';
import { consultationLogs } from './consultation-columns.ts';

type Change = Extract<PendingEvent, { type: 'ConsultationChanged' }>['payload']['change'];

/** How many progress lines a consultation keeps (the oldest go first). */
const MAX_LOGS = 200;

const changed = (consultationId: string, change: Change, targetId: string | null = null, line: string | null = null) =>
  ({ type: 'ConsultationChanged', payload: { consultationId, change, targetId, text: line } }) as const;

/**
 * The map a consultation belongs to (set once, then immutable, so it can be read before the transaction). A
 * consultation started without a map has none until its first message: nothing is written on it before.
 */
export async function mapIdOfConsultation(ctx: CommandContext, consultationId: string): Promise<string> {
  const row = await ctx.db.read.consultation.findUnique({ where: { id: consultationId }, select: { mapId: true } });
  if (!row) throw new NotFoundError('Consultation', consultationId);
  if (!row.mapId) throw new ConflictError('the consultation has no map yet: send its first message');
  return row.mapId;
}

/** Runs `work` on a consultation inside its map's command (lock, owner check, events, publish). */
async function onConsultation<T>(
  ctx: CommandContext,
  consultationId: string,
  work: (tx: Tx, emit: (event: PendingEvent) => void, row: Consultation) => Promise<T>,
): Promise<T> {
  const mapId = await mapIdOfConsultation(ctx, consultationId);
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const row = await tx.consultation.findUnique({ where: { id: consultationId } });
    if (!row || row.mapId !== mapId) throw new NotFoundError('Consultation', consultationId);
    return work(tx, emit, row);
  });
}

export const startConsultationInput = z.object({
  mapId: id.optional(),
  strategy: z.enum(ConsultationStrategy).default(ConsultationStrategy.INTERRUPT),
});

const EMPTY = { plan: [], context: {}, logs: [] };

/**
 * Opens a consultation on one of the person's maps; without a map, one that waits for its problem
 * (NEEDS_PROBLEM: no map, so no event yet — its first message creates the map, see {@link attachConsultationMap}).
 */
export async function startConsultation(ctx: CommandContext, raw: unknown): Promise<Consultation> {
  const input = parseInput(startConsultationInput, raw);
  const mapId = input.mapId;
  if (!mapId) {
    assertCanChange(ctx, 'Consultation', 'new');
    return ctx.db.write((tx) =>
      tx.consultation.create({
        data: { ownerId: ctx.viewer.id, stage: ConsultationStage.NEEDS_PROBLEM, strategy: input.strategy, ...EMPTY },
      }),
    );
  }
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const row = await tx.consultation.create({
      data: { mapId, ownerId: ctx.viewer.id, strategy: input.strategy, ...EMPTY },
    });
    emit(changed(row.id, 'STARTED'));
    return row;
  });
}

/**
 * The first message of a consultation started without a map: the consultation joins the map created with it
 * as its problem (UNDERSTANDING), and the message is stored there, not planned yet. A consultation that
 * already has its map (a first message sent twice at once) is a ConflictError.
 */
export async function attachConsultationMap(
  ctx: CommandContext,
  consultationId: string,
  mapId: string,
  content: string,
): Promise<ConsultationMessage> {
  return mutateMap(ctx, mapId, async (tx, emit) => {
    const claimed = await tx.consultation.updateMany({
      where: { id: consultationId, ownerId: ctx.viewer.id, mapId: null, stage: ConsultationStage.NEEDS_PROBLEM },
      data: { mapId, stage: ConsultationStage.UNDERSTANDING, version: { increment: 1 } },
    });
    if (claimed.count !== 1) throw new ConflictError('the consultation already has its map');
    emit(changed(consultationId, 'STARTED'));
    const message = await tx.consultationMessage.create({ data: { consultationId, role: 'PERSON', text: content } });
    emit(changed(consultationId, 'MESSAGE', message.id, 'PERSON'));
    return message;
  });
}

/** The map's problem understanding started: the person confirms it through `runId`'s question. */
export async function consultationUnderstanding(ctx: CommandContext, consultationId: string, runId: string) {
  await onConsultation(ctx, consultationId, async (_tx, emit) => {
    emit(changed(consultationId, 'UNDERSTANDING', runId));
  });
}

/** The person confirmed the understanding: the consultation goes on (true when this call moved it). */
export async function consultationUnderstood(ctx: CommandContext, consultationId: string): Promise<boolean> {
  return onConsultation(ctx, consultationId, async (tx, emit) => {
    const moved = await tx.consultation.updateMany({
      where: { id: consultationId, stage: ConsultationStage.UNDERSTANDING },
      data: { stage: ConsultationStage.CONSULTING, version: { increment: 1 } },
    });
    if (moved.count) emit(changed(consultationId, 'UNDERSTOOD'));
    return moved.count > 0;
  });
}

/** The planner proposed sub-questions for a node: `runId` waits at the decomposition review. */
export async function consultationProposed(ctx: CommandContext, consultationId: string, runId: string, line: string) {
  await onConsultation(ctx, consultationId, async (_tx, emit) => {
    emit(changed(consultationId, 'PROPOSED', runId, line));
  });
}

export const consultationStrategyInput = z.object({ consultationId: id, strategy: z.enum(ConsultationStrategy) });

/**
 * The person changes what a message sent during a turn does (the next message follows it; a running turn goes
 * on). A consultation without its map yet has no feed: its row changes alone.
 */
export async function setConsultationStrategy(ctx: CommandContext, raw: unknown): Promise<Consultation> {
  const input = parseInput(consultationStrategyInput, raw);
  assertCanChange(ctx, 'Consultation', input.consultationId);
  const found = assertConsultationAccess(
    ctx,
    await ctx.db.read.consultation.findUnique({
      where: { id: input.consultationId },
      select: { mapId: true, ownerId: true },
    }),
    input.consultationId,
  );
  const data = { strategy: input.strategy, version: { increment: 1 } };
  if (!found.mapId) return ctx.db.write((tx) => tx.consultation.update({ where: { id: input.consultationId }, data }));
  return onConsultation(ctx, input.consultationId, async (tx, emit) => {
    const row = await tx.consultation.update({ where: { id: input.consultationId }, data });
    emit(changed(input.consultationId, 'STRATEGY', null, input.strategy));
    return row;
  });
}

export const consultationMessageInput = z.object({ consultationId: id, text: text(LIMITS.content) });

/** Stores a message of the person or of the front agent (a reply names the person's message it answers). */
export async function appendConsultationMessage(
  ctx: CommandContext,
  consultationId: string,
  role: ConsultationMessageRole,
  content: string,
  answersId: string | null = null,
): Promise<ConsultationMessage> {
  return onConsultation(ctx, consultationId, async (tx, emit) => {
    const message = await tx.consultationMessage.create({ data: { consultationId, role, text: content, answersId } });
    emit(changed(consultationId, 'MESSAGE', message.id, role));
    return message;
  });
}

/** Marks the person's messages the planner handled. */
export async function markConsultationPlanned(ctx: CommandContext, consultationId: string, ids: string[]) {
  if (!ids.length) return;
  await ctx.db.write((tx) =>
    tx.consultationMessage.updateMany({ where: { consultationId, id: { in: ids } }, data: { planned: true } }),
  );
}

/** Saves the planner's plan, the step in progress and its facts. */
export async function saveConsultationPlan(
  ctx: CommandContext,
  consultationId: string,
  plan: { plan: string[]; currentStep: number; context: Record<string, string> },
) {
  await onConsultation(ctx, consultationId, async (tx, emit) => {
    await tx.consultation.update({
      where: { id: consultationId },
      data: { plan: plan.plan, currentStep: plan.currentStep, context: plan.context, version: { increment: 1 } },
    });
    emit(changed(consultationId, 'PLAN', null, plan.plan[plan.currentStep] ?? null));
  });
}

/** Appends a progress line the person sees. */
export async function logConsultation(ctx: CommandContext, consultationId: string, line: string) {
  await onConsultation(ctx, consultationId, async (tx, emit, row) => {
    const at = new Date().toISOString();
    const logs = [...consultationLogs.parse(row.logs), { at, text: line }].slice(-MAX_LOGS);
    await tx.consultation.update({ where: { id: consultationId }, data: { logs } });
    emit(changed(consultationId, 'LOG', null, line));
  });
}

/** A turn started or ended: `busy` is what a restarted server resumes. */
export async function setConsultationBusy(
  ctx: CommandContext,
  consultationId: string,
  busy: boolean,
  line?: string,
  /** How the turn failed, kept on the consultation until the next turn starts (which clears it). */
  failure?: { code: string; reason: string },
) {
  await onConsultation(ctx, consultationId, async (tx, emit) => {
    const failed = { failureCode: failure?.code ?? null, failureReason: failure?.reason ?? null };
    await tx.consultation.update({ where: { id: consultationId }, data: { busy, ...failed } });
    emit(changed(consultationId, busy ? 'TURN_STARTED' : 'TURN_ENDED', null, line ?? null));
  });
}

/** Summarised messages leave the prompts (they stay stored) and the summary replaces them. */
export async function compressConsultation(
  ctx: CommandContext,
  consultationId: string,
  summary: string,
  ids: string[],
) {
  await onConsultation(ctx, consultationId, async (tx, emit) => {
    await tx.consultationMessage.updateMany({ where: { consultationId, id: { in: ids } }, data: { compressed: true } });
    await tx.consultation.update({ where: { id: consultationId }, data: { summary } });
    emit(changed(consultationId, 'COMPRESSED', null, String(ids.length)));
  });
}

const recordFields = {
  kind: z.enum(ConsultationRecordKind),
  content: text(LIMITS.content),
};

/** Stores a record the planner decided on. */
export async function addConsultationRecord(
  ctx: CommandContext,
  consultationId: string,
  raw: { kind: ConsultationRecordKind; content: string; sourceMessageId: string | null },
): Promise<ConsultationRecord> {
  const input = parseInput(z.object({ ...recordFields, sourceMessageId: z.string().nullable() }), raw);
  return onConsultation(ctx, consultationId, async (tx, emit) => {
    const source = input.sourceMessageId
      ? await tx.consultationMessage.findFirst({ where: { id: input.sourceMessageId, consultationId } })
      : null;
    const record = await tx.consultationRecord.create({
      data: { consultationId, kind: input.kind, content: input.content, sourceMessageId: source?.id ?? null },
    });
    emit(changed(consultationId, 'RECORD_ADDED', record.id, input.kind));
    return record;
  });
}

async function recordInConsultation(ctx: CommandContext, recordId: string) {
  const row = await ctx.db.read.consultationRecord.findUnique({ where: { id: recordId } });
  if (!row) throw new NotFoundError('ConsultationRecord', recordId);
  return row;
}

export const updateConsultationRecordInput = z.object({
  id,
  kind: recordFields.kind.optional(),
  content: recordFields.content.optional(),
  expectedVersion: z.number().int().optional(),
});

/** The person edits a record (its kind or its words). */
export async function updateConsultationRecord(ctx: CommandContext, raw: unknown): Promise<ConsultationRecord> {
  const input = parseInput(updateConsultationRecordInput, raw);
  const found = await recordInConsultation(ctx, input.id);
  return onConsultation(ctx, found.consultationId, async (tx, emit) => {
    const current = await tx.consultationRecord.findUnique({ where: { id: input.id } });
    if (!current) throw new NotFoundError('ConsultationRecord', input.id);
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version)
      throw new VersionConflictError('ConsultationRecord', input.id, current.version, input.expectedVersion);
    const record = await tx.consultationRecord.update({
      where: { id: input.id },
      data: {
        ...(input.kind ? { kind: input.kind } : {}),
        ...(input.content ? { content: input.content } : {}),
        version: { increment: 1 },
      },
    });
    emit(changed(found.consultationId, 'RECORD_UPDATED', record.id, record.kind));
    return record;
  });
}

/** The person deletes a record. */
export async function deleteConsultationRecord(ctx: CommandContext, raw: unknown): Promise<{ id: string }> {
  const input = parseInput(z.object({ id }), raw);
  const found = await recordInConsultation(ctx, input.id);
  return onConsultation(ctx, found.consultationId, async (tx, emit) => {
    await tx.consultationRecord.delete({ where: { id: input.id } });
    emit(changed(found.consultationId, 'RECORD_DELETED', input.id));
    return { id: input.id };
  });
}

/**
 * Writes a note file of the consultation's map (`write` returns its normalised path) and tells the clients.
 * The file is written inside the command, so a command with an idempotency key already used writes no file
 * and no event; a refused path writes neither.
 */
export async function writeConsultationNote(
  ctx: CommandContext,
  consultationId: string,
  write: (mapId: string) => Promise<string>,
): Promise<{ path: string }> {
  return onConsultation(ctx, consultationId, async (_tx, emit, row) => {
    // onConsultation found the consultation on its map: its mapId is set.
    if (row.mapId === null) throw new NotFoundError('Consultation', consultationId);
    const path = await write(row.mapId);
    emit(changed(consultationId, 'NOTE_WRITTEN', null, path));
    return { path };
  });
}

/** A piece of the front agent's reply, for the clients that show it as it is written. */
export async function streamConsultationReply(ctx: CommandContext, consultationId: string, piece: string) {
  await onConsultation(ctx, consultationId, async (_tx, emit) => {
    emit({ type: 'ConsultationTokens', payload: { consultationId, text: piece } });
  });
}
