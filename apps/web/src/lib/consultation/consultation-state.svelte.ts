import {
  CONSULTATION,
  type CONSULTATION_FIELDS,
  CONSULTATION_NOTE,
  type CONSULTATION_SUMMARY_FIELDS,
  CONSULTATIONS,
  DELETE_CONSULTATION_RECORD,
  type ResultOf,
  SEND_CONSULTATION_MESSAGE,
  SET_CONSULTATION_STRATEGY,
  START_CONSULTATION,
  UPDATE_CONSULTATION_RECORD,
} from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { type ApiError, requestError } from '../api/api-error.ts';
import { runMutation, runQuery } from '../api/request.ts';
import type { MapEvent } from '../api/results.ts';
import type { ConsultationRecordKind, ConsultationStrategy } from './strategies.ts';

export type { ConsultationRecordKind, ConsultationStrategy };

/** A consultation as the panel shows it (ConsultationFields). */
export type Consultation = ResultOf<typeof CONSULTATION_FIELDS>;
/** A consultation as the list shows it (ConsultationSummaryFields). */
export type ConsultationSummary = ResultOf<typeof CONSULTATION_SUMMARY_FIELDS>;
/** One record of a consultation. */
export type ConsultationRecord = Consultation['records'][number];

type ConsultationEvent = Extract<MapEvent, { __typename: 'ConsultationChanged' | 'ConsultationTokens' }>;

/** Whether a map event is about a consultation. */
export function isConsultationEvent(event: MapEvent): event is ConsultationEvent {
  return event.__typename === 'ConsultationChanged' || event.__typename === 'ConsultationTokens';
}

/**
 * The consultations of one map in the browser: the list, the open one, and the front agent's reply while it
 * streams. It is kept current by the map's events: streamed pieces are added as they come; any other change
 * of the open consultation reads it again from the API (one read at a time, the last change always read), so
 * what shows is always what is stored. After the feed reconnects, {@link refresh} reads everything again.
 */
export class ConsultationState {
  /** Whether the panel is open. */
  open = $state(false);
  list = $state.raw<ConsultationSummary[]>([]);
  listLoaded = $state(false);
  current = $state.raw<Consultation | null>(null);
  /** The front agent's reply as it streams (empty when none streams). */
  streaming = $state('');
  /** The composer's text, kept while the panel is closed. */
  draft = $state('');
  #reading: Promise<void> | null = null;
  #readAgain = false;
  #listing: Promise<void> | null = null;
  #listAgain = false;
  #seenReplies = new Set<string>();
  /** The running turn's reply is stored: pieces of it still on their way are not shown again. */
  #replyStored = false;
  #onReply: ((text: string) => void) | null = null;

  constructor(
    private readonly client: Client,
    private readonly mapId: string,
  ) {}

  /** Told of each new stored reply of the open consultation (the live region says it). */
  onReply(listener: (text: string) => void): void {
    this.#onReply = listener;
  }

  /** Reads the map's consultations. */
  loadList(): Promise<void> {
    if (this.#listing) {
      this.#listAgain = true;
      return this.#listing;
    }
    this.#listing = (async () => {
      do {
        this.#listAgain = false;
        const result = await runQuery(this.client, CONSULTATIONS, { mapId: this.mapId });
        if (result.ok) {
          this.list = result.value.data;
          this.listLoaded = true;
        }
      } while (this.#listAgain);
    })().finally(() => (this.#listing = null));
    return this.#listing;
  }

  /** Opens one consultation (reads it whole). */
  async select(id: string | null): Promise<ApiError | null> {
    this.streaming = '';
    this.#replyStored = false;
    this.#seenReplies.clear();
    if (!id) {
      this.current = null;
      return null;
    }
    const result = await runQuery(this.client, CONSULTATION, { id });
    if (!result.ok) return result.error;
    this.#show(result.value, true);
    return null;
  }

  /** Starts a consultation with `strategy` and opens it. */
  async start(strategy: ConsultationStrategy): Promise<ApiError | null> {
    const result = await runMutation(this.client, START_CONSULTATION, { input: { mapId: this.mapId, strategy } });
    if (!result.ok) return result.error;
    this.streaming = '';
    this.#replyStored = false;
    this.#seenReplies.clear();
    this.#show(result.value, true);
    void this.loadList();
    return null;
  }

  /** Sends the person's message to the open consultation; the answer follows on the map's events. */
  async send(text: string): Promise<ApiError | null> {
    const consultation = this.current;
    if (!consultation) return null;
    const result = await runMutation(this.client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: consultation.id, text },
    });
    if (!result.ok) return result.error;
    void this.refresh();
    return null;
  }

  /** The person changes what a message sent while the open consultation works does, from the next one on. */
  async setStrategy(strategy: ConsultationStrategy): Promise<ApiError | null> {
    const consultation = this.current;
    if (!consultation || consultation.strategy === strategy) return null;
    const result = await runMutation(this.client, SET_CONSULTATION_STRATEGY, {
      input: { consultationId: consultation.id, strategy },
    });
    await Promise.all([this.#readCurrent(), this.loadList()]);
    return result.ok ? null : result.error;
  }

  /** The person corrects a record (its kind and words), from the version they saw. */
  async updateRecord(
    record: ConsultationRecord,
    change: { kind: ConsultationRecordKind; content: string },
  ): Promise<ApiError | null> {
    const result = await runMutation(this.client, UPDATE_CONSULTATION_RECORD, {
      input: { id: record.id, ...change, expectedVersion: record.version },
    });
    await this.#readCurrent();
    return result.ok ? null : result.error;
  }

  /** The person deletes a record. */
  async deleteRecord(id: string): Promise<ApiError | null> {
    const result = await runMutation(this.client, DELETE_CONSULTATION_RECORD, { id });
    await this.#readCurrent();
    return result.ok ? null : result.error;
  }

  /** One note's Markdown. */
  async readNote(path: string): Promise<{ ok: true; content: string } | { ok: false; error: ApiError }> {
    const id = this.current?.id;
    if (!id) return { ok: false, error: requestError('no consultation is open') };
    const result = await runQuery(this.client, CONSULTATION_NOTE, { id, path });
    return result.ok ? { ok: true, content: result.value.content } : result;
  }

  /** Applies one of the map's events. */
  apply(event: MapEvent): void {
    if (!isConsultationEvent(event)) return;
    const open = this.current?.id === event.consultationId;
    if (event.__typename === 'ConsultationTokens') {
      if (open && !this.#replyStored) this.streaming += event.text;
      return;
    }
    if (open) {
      // A new turn (or the end of one, perhaps interrupted) starts the streamed reply afresh.
      if (event.change === 'TURN_STARTED' || event.change === 'TURN_ENDED') {
        this.streaming = '';
        this.#replyStored = event.change === 'TURN_ENDED';
      }
      void this.#readCurrent();
    }
    if (
      event.change === 'STARTED' ||
      event.change === 'STRATEGY' ||
      event.change === 'MESSAGE' ||
      event.change === 'TURN_STARTED' ||
      event.change === 'TURN_ENDED'
    )
      void this.loadList();
  }

  /** Reads the list and the open consultation again (after the live feed reconnected). */
  async refresh(): Promise<void> {
    await Promise.all([this.loadList(), this.current ? this.#readCurrent() : null]);
  }

  /** Puts a consultation read elsewhere (a record's edit) into view. */
  replace(consultation: Consultation): void {
    this.#show(consultation, false);
  }

  /** Reads the open consultation again: one read at a time, and once more if something changed meanwhile. */
  #readCurrent(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#readAgain = false;
        const id = this.current?.id;
        if (!id) return;
        const result = await runQuery(this.client, CONSULTATION, { id });
        if (result.ok && this.current?.id === id) this.#show(result.value, false);
      } while (this.#readAgain);
    })().finally(() => (this.#reading = null));
    return this.#reading;
  }

  #show(consultation: Consultation, first: boolean): void {
    const replies = consultation.messages.filter((m) => m.role === 'ASSISTANT');
    const fresh = replies.filter((m) => !this.#seenReplies.has(m.id));
    for (const reply of replies) this.#seenReplies.add(reply.id);
    // The reply that was streaming is stored now: show it once, as a message (a turn streams one reply).
    if (fresh.length > 0 && !first) {
      this.streaming = '';
      this.#replyStored = true;
    }
    this.current = consultation;
    this.list = this.list.some((c) => c.id === consultation.id)
      ? this.list.map((c) => (c.id === consultation.id ? consultation : c))
      : [consultation, ...this.list];
    if (!first) for (const reply of fresh) this.#onReply?.(reply.text);
  }
}
