import {
  ConsultationBusyError,
  ConsultationConductor,
  createConsultationGraph,
  isAgentError,
  type ModelPort,
  type SentMessage,
} from '@thinkingmap/agent-core';
import type { Consultation, Database } from '@thinkingmap/db';
import { consultationMessageInput, mapIdOfConsultation, startConsultation } from '../commands/consultation-commands.ts';
import type { CommandContext } from '../commands/context.ts';
import { parseInput } from '../commands/input.ts';
import { assertCanChange } from '../commands/mutate-map.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors/domain-errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent } from '../events/map-event.ts';
import { CommandConsultationStore } from './consultation-store.ts';
import type { FileNotes } from './file-notes.ts';

/** A message refused because the consultation is busy and refuses messages then (strategy REJECT). */
export class ConsultationBusyConflict extends ConflictError {}

/** What the service needs. */
export interface ConsultationServiceOptions {
  db: Database;
  bus: EventBus;
  model: ModelPort;
  notes: FileNotes;
  onCommitted?: (events: readonly MapEvent[]) => void;
  logError: (error: unknown) => void;
  /** Turns before earlier messages are summarised (TM_CONSULTATION_COMPRESS_AFTER, default 6). */
  compressAfterTurns?: number;
}

/**
 * Consultations of this process: one graph and one conductor (turns one at a time per consultation, the
 * consultation's strategy for a message during a turn). Turns act as the map's owner through the command
 * layer; a turn a restart cut short is run again at start from the person's unplanned messages.
 */
export class ConsultationService {
  readonly conductor: ConsultationConductor;
  readonly store: CommandConsultationStore;

  constructor(private readonly options: ConsultationServiceOptions) {
    const owners = new Map<string, string>();
    const commandsOf = async (consultationId: string): Promise<CommandContext> => {
      let owner = owners.get(consultationId);
      if (!owner) {
        const row = await options.db.read.consultation.findUnique({
          where: { id: consultationId },
          select: { map: { select: { ownerId: true } } },
        });
        if (!row) throw new NotFoundError('Consultation', consultationId);
        owner = row.map.ownerId;
        owners.set(consultationId, owner);
      }
      return { db: options.db, bus: options.bus, viewer: { id: owner }, onCommitted: options.onCommitted };
    };
    this.store = new CommandConsultationStore(commandsOf, options.notes, options.logError);
    const graph = createConsultationGraph({
      model: options.model,
      store: this.store,
      notes: this.store,
      stream: this.store,
      ...(options.compressAfterTurns ? { compressAfterTurns: options.compressAfterTurns } : {}),
    });
    this.conductor = new ConsultationConductor(graph, this.store);
  }

  /** Opens a consultation on one of the viewer's maps. */
  start(ctx: CommandContext, input: unknown): Promise<Consultation> {
    return startConsultation(ctx, input);
  }

  /** The person sends a message; the turn that handles it runs in the background. */
  async send(ctx: CommandContext, raw: unknown): Promise<SentMessage> {
    const input = parseInput(consultationMessageInput, raw);
    assertCanChange(ctx, 'Consultation', input.consultationId);
    const mapId = await mapIdOfConsultation(ctx, input.consultationId);
    const map = await ctx.db.read.map.findUnique({ where: { id: mapId }, select: { ownerId: true } });
    if (!map) throw new NotFoundError('Consultation', input.consultationId);
    if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Consultation', input.consultationId);
    const row = await ctx.db.read.consultation.findUniqueOrThrow({ where: { id: input.consultationId } });
    try {
      const sent = await this.conductor.send(input.consultationId, input.text, row.strategy);
      void sent.turn.then((outcome) => {
        if (outcome.status === 'failed' && outcome.code === 'INTERNAL') this.options.logError(outcome.reason);
      });
      return sent;
    } catch (error) {
      if (error instanceof ConsultationBusyError || isAgentError(error, 'CONSULTATION_BUSY'))
        throw new ConsultationBusyConflict('the consultation is still answering the previous message');
      throw error;
    }
  }

  /** Runs the turns a previous process left unfinished (busy, or with unplanned messages). */
  async resumeUnfinished(): Promise<void> {
    const rows = await this.options.db.read.consultation.findMany({ where: { busy: true }, select: { id: true } });
    for (const row of rows) void this.conductor.resume(row.id);
  }

  /** Stops every running turn (shutdown). */
  async stop(ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.conductor.stop(id)));
  }
}
