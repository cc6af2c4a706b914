import {
  AgentError,
  CONSULTATION_LIMITS,
  type ConsultationMessage,
  type ConsultationNoteDraft,
  type ConsultationPlan,
  type ConsultationProposalDraft,
  type ConsultationRecordDraft,
  type ConsultationSnapshot,
  type ConsultationStorePort,
  type ConsultationStreamPort,
  type Idempotent,
  type NotesPort,
  type TurnLifecycle,
  type TurnOutcome,
} from '@thinkingmap/agent-core';
import type { CommandContext } from '../commands/context.ts';
import { DomainError, NotFoundError } from '../commands/domain-errors.ts';
import { consultationContext, consultationPlan } from './consultation-columns.ts';
import {
  addConsultationRecord,
  appendConsultationMessage,
  compressConsultation,
  consultationProposed,
  logConsultation,
  markConsultationPlanned,
  saveConsultationPlan,
  setConsultationBusy,
  streamConsultationReply,
  writeConsultationNote,
} from './consultation-commands.ts';
import type { FileNotes } from './file-notes.ts';

const FAILED = { en: 'This turn failed', zh: '本轮处理失败' } as const;

/** How many of the map's nodes the planner's prompt lists. */
const PROMPT_NODES = 40;

/** Starts the decomposition review of a planner's proposal (`proposeSubQuestions` of runs/start-runs.ts). */
export type ProposeSubQuestions = (
  ctx: CommandContext,
  input: { nodeId: string; proposal: ConsultationProposalDraft; consultationId: string },
) => Promise<{ id: string }>;

/**
 * The consultation graph's ports over the command layer: every write is a `mutateMap` command on the
 * consultation's map, acting as the map's owner, with its event on the map's feed. Notes go to the map's
 * notes folder. Streamed reply pieces are events too, sent one after another per consultation.
 */
export class CommandConsultationStore
  implements ConsultationStorePort, TurnLifecycle, NotesPort, ConsultationStreamPort
{
  private readonly streams = new Map<string, Promise<void>>();

  constructor(
    private readonly commands: (consultationId: string) => Promise<CommandContext>,
    private readonly files: FileNotes,
    private readonly logError: (error: unknown) => void,
    private readonly proposeRun: ProposeSubQuestions,
  ) {}

  /** The command context a consultation's writes act in (its owner). */
  commandsFor(consultationId: string): Promise<CommandContext> {
    return this.commands(consultationId);
  }

  /**
   * The context of one write, once per idempotency key (the command layer's receipt), and whether the write
   * happened: a command replayed from its receipt runs no work and so commits no event (`onCommitted` is called
   * only with events), which tells a write that happened from one already kept.
   */
  private async commandsOnce(
    consultationId: string,
    { idempotencyKey }: Idempotent,
  ): Promise<{ ctx: CommandContext; written: () => boolean }> {
    const base = await this.commands(consultationId);
    let committed = false;
    const ctx: CommandContext = {
      ...base,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      onCommitted: (events) => {
        committed = true;
        base.onCommitted?.(events);
      },
    };
    return { ctx, written: () => committed };
  }

  async load(consultationId: string): Promise<ConsultationSnapshot> {
    const ctx = await this.commands(consultationId);
    const row = await ctx.db.read.consultation.findUnique({
      where: { id: consultationId },
      include: {
        map: {
          select: {
            language: true,
            nodes: {
              select: { id: true, question: true, parentId: true },
              orderBy: { createdAt: 'asc' },
              take: PROMPT_NODES,
            },
          },
        },
        messages: { where: { compressed: false }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
        records: {
          select: { kind: true, content: true },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: CONSULTATION_LIMITS.promptRecords,
        },
      },
    });
    if (!row?.map || !row.mapId) throw new NotFoundError('Consultation', consultationId);
    const notes = await this.files.list(row.mapId);
    return {
      consultationId,
      language: row.map.language,
      strategy: row.strategy,
      nodes: row.map.nodes,
      summary: row.summary,
      messages: row.messages.map((m) => ({ id: m.id, role: m.role, text: m.text, answersId: m.answersId })),
      unplanned: row.messages.filter((m) => m.role === 'PERSON' && !m.planned).map((m) => m.id),
      plan: consultationPlan.parse(row.plan),
      currentStep: row.currentStep,
      context: consultationContext.parse(row.context),
      records: row.records.reverse(),
      notes: notes
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
        .slice(-CONSULTATION_LIMITS.promptNotes)
        .map((n) => n.path),
    };
  }

  async appendMessage(consultationId: string, message: Omit<ConsultationMessage, 'id'>) {
    await this.streams.get(consultationId);
    const row = await appendConsultationMessage(
      await this.commands(consultationId),
      consultationId,
      message.role,
      message.text,
      message.answersId ?? null,
    );
    return { id: row.id, role: row.role, text: row.text, answersId: row.answersId };
  }

  async markPlanned(consultationId: string, messageIds: string[]) {
    await markConsultationPlanned(await this.commands(consultationId), consultationId, messageIds);
  }

  async savePlan(consultationId: string, plan: ConsultationPlan) {
    await saveConsultationPlan(await this.commands(consultationId), consultationId, plan);
  }

  async log(consultationId: string, text: string) {
    await logConsultation(await this.commands(consultationId), consultationId, text);
  }

  async writeRecord(consultationId: string, record: ConsultationRecordDraft, options: Idempotent = {}) {
    const { ctx, written } = await this.commandsOnce(consultationId, options);
    const row = await addConsultationRecord(ctx, consultationId, record);
    return { id: row.id, written: written() };
  }

  async compress(consultationId: string, summary: string, messageIds: string[]) {
    await compressConsultation(await this.commands(consultationId), consultationId, summary, messageIds);
  }

  async propose(consultationId: string, proposal: ConsultationProposalDraft) {
    const ctx = await this.commands(consultationId);
    const row = await ctx.db.read.consultation.findUniqueOrThrow({ where: { id: consultationId } });
    const node = await ctx.db.read.node.findUnique({ where: { id: proposal.nodeId }, select: { mapId: true } });
    if (!node || node.mapId !== row.mapId)
      throw new AgentError('INVALID_INPUT', `no node ${proposal.nodeId.slice(0, 40)} on this map`);
    try {
      const run = await this.proposeRun(ctx, { nodeId: proposal.nodeId, proposal, consultationId });
      await consultationProposed(ctx, consultationId, run.id, proposal.nodeId);
      return { runId: run.id };
    } catch (error) {
      // A node already running, or a proposal the command refuses: the planner and the person are told.
      if (error instanceof DomainError) throw new AgentError('INVALID_INPUT', error.message);
      throw error;
    }
  }

  async write(consultationId: string, note: ConsultationNoteDraft, options: Idempotent = {}) {
    const { ctx, written } = await this.commandsOnce(consultationId, options);
    const row = await ctx.db.read.consultation.findUniqueOrThrow({ where: { id: consultationId } });
    if (!row.mapId) throw new AgentError('INVALID_INPUT', 'the consultation has no map yet');
    const { path } = await writeConsultationNote(ctx, consultationId, (mapId) =>
      this.files.write(mapId, note.path, note.content),
    );
    return { path, written: written() };
  }

  async turnStarted(consultationId: string) {
    await setConsultationBusy(await this.commands(consultationId), consultationId, true);
  }

  async turnEnded(consultationId: string, outcome: TurnOutcome) {
    const ctx = await this.commands(consultationId);
    if (outcome.status === 'failed') {
      const row = await ctx.db.read.consultation.findUnique({ where: { id: consultationId }, include: { map: true } });
      const language = row?.map?.language ?? 'en';
      const raw = outcome.raw ? ` (model wrote: ${outcome.raw.slice(0, 500)})` : '';
      this.logError(`consultation ${consultationId} turn failed: ${outcome.code}: ${outcome.reason}${raw}`);
      const failure = { code: outcome.code, reason: outcome.reason };
      await setConsultationBusy(ctx, consultationId, false, `${FAILED[language]}: ${outcome.reason}`, failure);
    } else await setConsultationBusy(ctx, consultationId, false, outcome.status);
  }

  replyStreamed(consultationId: string, text: string) {
    const previous = this.streams.get(consultationId) ?? Promise.resolve();
    const next = previous
      .then(async () => streamConsultationReply(await this.commands(consultationId), consultationId, text))
      .catch((error: unknown) => this.logError(error))
      .finally(() => {
        if (this.streams.get(consultationId) === next) this.streams.delete(consultationId);
      });
    this.streams.set(consultationId, next);
  }
}
