import { isGateQuestion } from '@thinkingmap/db/enums';
import type { MapEvent, PendingQuestion } from '../api/results.ts';

/** What the inbox says of a map, so that two maps of the same title can be told apart. */
export interface InboxMap {
  title: string;
  problem: string | null;
  /** When the map last changed (ISO date). */
  updatedAt: string;
}

/** Loads what the inbox shows: every pending question of the viewer, and the titles and problems of their maps. */
export interface InboxSource {
  questions(): Promise<readonly PendingQuestion[] | null>;
  maps(): Promise<Record<string, InboxMap> | null>;
}

/** Told of each question that arrives after the inbox first loaded. */
export type ArrivalListener = (question: PendingQuestion, mapTitle: string | null) => void;

/**
 * The questions agents wait on, across all the person's maps: counted in the header, the tab title and on the
 * map cards. Loaded from the API (`viewer { pendingQuestions }`) on start, focus and return to the tab, and
 * kept current between loads by the events of the map that is open. A question that was not there before is an
 * arrival (a toast, a browser notification).
 */
export class Inbox {
  questions = $state.raw<readonly PendingQuestion[]>([]);
  titles = $state.raw<Record<string, string>>({});
  /** What each map is about and when it last changed, to tell maps of one title apart. */
  about = $state.raw<Record<string, Omit<InboxMap, 'title'>>>({});
  #loaded = false;
  #listeners = new Set<ArrivalListener>();
  #refreshing: Promise<void> | null = null;

  constructor(private readonly source: InboxSource) {}

  /** How many questions wait. */
  get count(): number {
    return this.questions.length;
  }

  /** The questions waiting on one map. */
  on(mapId: string): PendingQuestion[] {
    return this.questions.filter((q) => q.mapId === mapId);
  }

  /** Listens for arrivals; returns the function that stops listening. */
  listen(listener: ArrivalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reloads from the API (one load at a time; a call during a load waits for it). */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#load().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /** Names a map (the workspace knows the title of the map it shows). */
  setTitle(mapId: string, title: string): void {
    if (this.titles[mapId] !== title) this.titles = { ...this.titles, [mapId]: title };
  }

  /** Applies an event of an open map: questions asked, resolved, or dropped with their run or map. */
  apply(event: MapEvent): void {
    switch (event.__typename) {
      case 'AgentQuestion': {
        if (this.questions.some((q) => q.requestId === event.requestId)) return;
        const question: PendingQuestion = {
          requestId: event.requestId,
          runId: event.runId,
          mapId: event.mapId,
          nodeId: event.nodeId,
          kind: event.kind,
          question: event.question,
          context: event.context,
          status: 'PENDING',
          answerable: true,
          createdAt: event.at,
          expiresAt: event.expiresAt,
        };
        this.questions = [...this.questions, question];
        this.#arrived([question]);
        return;
      }
      case 'QuestionResolved':
        // An expired gate (a review, a confirmation) still waits for the person: it stays, marked EXPIRED.
        this.questions =
          event.status === 'EXPIRED'
            ? this.questions
                .filter((q) => q.requestId !== event.requestId || isGateQuestion(q.kind))
                .map((q) => (q.requestId === event.requestId ? { ...q, status: 'EXPIRED' as const } : q))
            : this.questions.filter((q) => q.requestId !== event.requestId);
        return;
      case 'RunFinished':
      case 'RunFailed':
        this.questions = this.questions.filter((q) => q.runId !== event.runId);
        return;
      case 'MapDeleted':
        this.questions = this.questions.filter((q) => q.mapId !== event.mapId);
        return;
      default:
        return;
    }
  }

  async #load(): Promise<void> {
    const questions = await this.source.questions();
    if (!questions) return;
    const before = new Set(this.questions.map((q) => q.requestId));
    const pending = questions.filter((q) => q.status === 'PENDING');
    if (pending.some((q) => !(q.mapId in this.titles))) {
      const maps = await this.source.maps();
      if (maps) {
        const entries = Object.entries(maps);
        this.titles = { ...this.titles, ...Object.fromEntries(entries.map(([id, map]) => [id, map.title])) };
        this.about = {
          ...this.about,
          ...Object.fromEntries(entries.map(([id, { problem, updatedAt }]) => [id, { problem, updatedAt }])),
        };
      }
    }
    this.questions = pending;
    const first = !this.#loaded;
    this.#loaded = true;
    if (!first) this.#arrived(pending.filter((q) => !before.has(q.requestId)));
  }

  #arrived(questions: PendingQuestion[]): void {
    for (const question of questions)
      for (const listener of this.#listeners) listener(question, this.titles[question.mapId] ?? null);
  }
}
