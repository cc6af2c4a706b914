import {
  ConsultationBusyError,
  ConsultationConductor,
  createConsultationGraph,
  isAgentError,
  type ModelPort,
  type TurnOutcome,
} from '@thinkingmap/agent-core';
import { AgentGraph, type Consultation, ConsultationStage, type Database } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import { ConflictError, NotFoundError } from '../commands/domain-errors.ts';
import { parseInput } from '../commands/input.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { assertCanChange } from '../commands/mutate-map.ts';
import type { EventBus } from '../events/event-bus.ts';
import { createMap } from '../maps/map-commands.ts';
import type { RunEngine } from '../runs/run-engine.ts';
import { proposeSubQuestions, understandProblem } from '../runs/start-runs.ts';
import { assertConsultationAccess } from './consultation-access.ts';
import {
  appendConsultationMessage,
  attachConsultationMap,
  consultationMessageInput,
  consultationUnderstanding,
  consultationUnderstood,
  startConsultation,
} from './consultation-commands.ts';
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
  /** Drives the problem understanding and sub-question proposals it starts (the same runs and gates as elsewhere). */
  engine: RunEngine;
  onCommitted?: (events: readonly MapEvent[]) => void;
  logError: (error: unknown) => void;
  /** Turns before earlier messages are summarised (TM_CONSULTATION_COMPRESS_AFTER, default 6). */
  compressAfterTurns?: number;
}

/** A stored message of the person and what happens with it. */
export interface SentConsultationMessage {
  message: { id: string };
  /**
   * The turn that answers it; `waiting` when the consultation waits for the person to confirm the understanding
   * of its problem first (the message is answered once they do).
   */
  turn: Promise<TurnOutcome | { status: 'waiting' }>;
}

/**
 * Consultations of this process: one graph and one conductor (turns one at a time per consultation, the
 * consultation's strategy for a message during a turn). Turns act as the consultation's owner through the
 * command layer; a turn a restart cut short is run again at start from the person's unplanned messages.
 * A consultation started without a map goes through problem understanding first: its first message creates
 * the map (as createMap with a problem does) and starts its understanding run; once the person confirms it
 * (replyToAgent, never by expiry), the consultation answers the messages it kept meanwhile.
 */
export class ConsultationService {
  readonly conductor: ConsultationConductor;
  readonly store: CommandConsultationStore;
  private readonly firsts = new Map<string, Promise<SentConsultationMessage>>();

  constructor(private readonly options: ConsultationServiceOptions) {
    const owners = new Map<string, string>();
    const commandsOf = async (consultationId: string): Promise<CommandContext> => {
      let owner = owners.get(consultationId);
      if (!owner) {
        const row = await options.db.read.consultation.findUnique({
          where: { id: consultationId },
          select: { ownerId: true },
        });
        if (!row) throw new NotFoundError('Consultation', consultationId);
        owner = row.ownerId;
        owners.set(consultationId, owner);
      }
      return { db: options.db, bus: options.bus, viewer: { id: owner }, onCommitted: options.onCommitted };
    };
    this.store = new CommandConsultationStore(commandsOf, options.notes, options.logError, (ctx, input) =>
      proposeSubQuestions(options.engine, ctx, input),
    );
    const graph = createConsultationGraph({
      model: options.model,
      store: this.store,
      notes: this.store,
      stream: this.store,
      ...(options.compressAfterTurns ? { compressAfterTurns: options.compressAfterTurns } : {}),
    });
    this.conductor = new ConsultationConductor(graph, this.store);
  }

  /** Opens a consultation on one of the viewer's maps, or without a map (NEEDS_PROBLEM). */
  start(ctx: CommandContext, input: unknown): Promise<Consultation> {
    return startConsultation(ctx, input);
  }

  /** The person sends a message; the turn that handles it runs in the background. */
  async send(ctx: CommandContext, raw: unknown): Promise<SentConsultationMessage> {
    const input = parseInput(consultationMessageInput, raw);
    assertCanChange(ctx, 'Consultation', input.consultationId);
    const row = await ctx.db.read.consultation.findUnique({ where: { id: input.consultationId } });
    const found = assertConsultationAccess(ctx, row, input.consultationId);
    if (found.stage === ConsultationStage.NEEDS_PROBLEM) return this.first(ctx, found.id, input.text);
    if (found.stage === ConsultationStage.UNDERSTANDING) {
      // Kept unplanned: the turn after the person confirms the understanding answers it.
      const message = await appendConsultationMessage(ctx, found.id, 'PERSON', input.text);
      return { message, turn: Promise.resolve({ status: 'waiting' }) };
    }
    try {
      // A failed turn is logged and kept on the consultation by its store (turnEnded).
      return await this.conductor.send(found.id, input.text, found.strategy);
    } catch (error) {
      if (error instanceof ConsultationBusyError || isAgentError(error, 'CONSULTATION_BUSY'))
        throw new ConsultationBusyConflict('the consultation is still answering the previous message');
      throw error;
    }
  }

  /** The first message of a consultation without a map: its problem. One at a time per consultation. */
  private first(ctx: CommandContext, consultationId: string, text: string): Promise<SentConsultationMessage> {
    const running = this.firsts.get(consultationId);
    if (running) return running.then(() => this.send(ctx, { consultationId, text }));
    const work = (async () => {
      const map = await createMap(ctx, { problem: text });
      const message = await attachConsultationMap(ctx, consultationId, map.id, text);
      const run = await understandProblem(this.options.engine, ctx, map.id, consultationId);
      await consultationUnderstanding(ctx, consultationId, run.id);
      return { message, turn: Promise.resolve({ status: 'waiting' as const }) };
    })();
    this.firsts.set(consultationId, work);
    return work.finally(() => this.firsts.delete(consultationId));
  }

  /**
   * Committed events of every map: when the problem understanding a consultation started finishes (the person
   * confirmed), the consultation goes on and answers the messages it kept.
   */
  onEvents(events: readonly MapEvent[]): void {
    for (const event of events) {
      if (event.type !== 'RunFinished' || event.payload.run.agent !== AgentGraph.UNDERSTAND_PROBLEM) continue;
      if (event.payload.run.status !== 'COMPLETED') continue;
      void this.understood(event.payload.run.id).catch((error: unknown) => this.options.logError(error));
    }
  }

  private async understood(runId: string): Promise<void> {
    const run = await this.options.db.read.agentRun.findUnique({
      where: { id: runId },
      select: { consultationId: true },
    });
    if (!run?.consultationId) return;
    const id = run.consultationId;
    const ctx = await this.store.commandsFor(id);
    if (await consultationUnderstood(ctx, id)) await this.conductor.resume(id);
  }

  /**
   * Runs the turns a previous process left unfinished (busy, or with unplanned messages), and goes on with
   * consultations whose understanding was confirmed while no process could see it.
   */
  async resumeUnfinished(): Promise<void> {
    const waiting = await this.options.db.read.agentRun.findMany({
      where: {
        agent: AgentGraph.UNDERSTAND_PROBLEM,
        status: 'COMPLETED',
        consultation: { stage: ConsultationStage.UNDERSTANDING },
      },
      select: { id: true },
    });
    for (const run of waiting) void this.understood(run.id).catch((error: unknown) => this.options.logError(error));
    const rows = await this.options.db.read.consultation.findMany({ where: { busy: true }, select: { id: true } });
    for (const row of rows) void this.conductor.resume(row.id);
  }

  /** Stops every running turn (shutdown). */
  async stop(ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.conductor.stop(id)));
  }
}
