import type { Database } from '@thinkingmap/db';
import { QuestionStatus, RunStatus } from '@thinkingmap/db/enums';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { MapEvent } from '../commands/map-event.ts';
import type { StoredAnswerOutcome } from '../http/map-response-cache.ts';

/** What a bounded cache holds now. */
interface CacheHeld {
  bytes: number;
  entries: number;
}

/** How a subscription reaches its client. */
export type SubscriptionTransport = 'ws' | 'sse';

/** Seconds buckets for model calls and question waits: from a fast model answer to a person's day. */
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const WAIT_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600];
const STORED_ANSWER_OUTCOMES: readonly StoredAnswerOutcome[] = ['hit', 'not_modified', 'computed'];

/** A counter of `registry` (the metric helpers keep each declaration to its name, help and labels). */
function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

/** A histogram of `registry` with the given buckets (seconds). */
function histogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
) {
  return new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
}

/** A gauge of `registry` set by the code that observes it. */
function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

/**
 * The server's Prometheus metrics, one registry per app (tests run several apps in one process). GraphQL request
 * counts and latencies are added to the same registry by `usePrometheus` (graphql-metrics.ts); the rest is here:
 * open subscriptions, events, runs by status (read from the database on each scrape), model calls by agent,
 * question wait times and the process' own metrics.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly subscriptionsOpen = gauge(
    this.registry,
    'thinkingmap_subscriptions_open',
    'GraphQL subscriptions open on this instance, by transport (ws = graphql-ws, sse = Server-Sent Events).',
    ['transport'],
  );
  readonly eventsPublished = counter(
    this.registry,
    'thinkingmap_events_published_total',
    'Map events committed and published to the event bus by this instance, by event type.',
    ['type'],
  );
  readonly eventsDelivered = counter(
    this.registry,
    'thinkingmap_events_delivered_total',
    'Subscription results sent to clients by this instance (one per event and subscriber), by transport.',
    ['transport'],
  );
  readonly modelCalls = counter(
    this.registry,
    'thinkingmap_model_calls_total',
    'Model calls made by the agents, by agent and outcome (ok or error).',
    ['agent', 'outcome'],
  );
  readonly modelTokens = counter(
    this.registry,
    'thinkingmap_model_tokens_total',
    'Tokens spent by the agents, by agent and kind (prompt or completion).',
    ['agent', 'kind'],
  );
  readonly modelDuration = histogram(
    this.registry,
    'thinkingmap_model_call_duration_seconds',
    'Duration of a model call (a structured answer with its repair counts once), by agent.',
    ['agent'],
    MODEL_BUCKETS,
  );
  readonly modelErrors = counter(
    this.registry,
    'thinkingmap_model_errors_total',
    'Failed model calls, by agent and error code (MODEL_TIMEOUT, MODEL_UNPARSEABLE, BUDGET_EXHAUSTED, ...).',
    ['agent', 'code'],
  );
  readonly questionWait = histogram(
    this.registry,
    'thinkingmap_question_wait_seconds',
    "Time from an agent's question to the person's answer, observed when answered, by question kind.",
    ['kind'],
    WAIT_BUCKETS,
  );
  /** Stored answers counted since the last scrape, by outcome: added to {@link storedAnswers} when it is read. */
  readonly #storedAnswersPending: Record<StoredAnswerOutcome, number> = { hit: 0, not_modified: 0, computed: 0 };
  readonly storedAnswers = (() => {
    const pending = this.#storedAnswersPending;
    // Counted as plain numbers on the request path (a hit costs microseconds; the counter's `inc` about one).
    return new Counter<'outcome'>({
      name: 'thinkingmap_graphql_stored_answers_total',
      help: 'Map reads answered by the response cache, by outcome: hit (stored bytes sent) and not_modified (304) never reach Yoga (so are not in graphql_envelop_*); computed ones were answered by Yoga, then stored.',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        for (const outcome of STORED_ANSWER_OUTCOMES) {
          this.labels(outcome).inc(pending[outcome]);
          pending[outcome] = 0;
        }
      },
    });
  })();
  /** The bounded in-memory caches, by name: what each holds, read when Prometheus scrapes. */
  readonly #caches = new Map<string, () => CacheHeld>();
  readonly cacheGauges = (() => {
    const caches = this.#caches;
    const read = (pick: keyof CacheHeld) =>
      function (this: Gauge<'cache'>) {
        for (const [cache, held] of caches) this.set({ cache }, held()[pick]);
      };
    return {
      bytes: new Gauge<'cache'>({
        name: 'thinkingmap_cache_bytes',
        help: "What each bounded in-memory cache holds, in bytes of its own estimate (the measure of its bound): map_answers (stored map-read answers, compressed forms included), map_rows (a map's node and dependency rows), map_read_requests (request texts known as map reads).",
        labelNames: ['cache'],
        registers: [this.registry],
        collect: read('bytes'),
      }),
      entries: new Gauge<'cache'>({
        name: 'thinkingmap_cache_entries',
        help: 'Entries of each bounded in-memory cache (see thinkingmap_cache_bytes).',
        labelNames: ['cache'],
        registers: [this.registry],
        collect: read('entries'),
      }),
    };
  })();
  /** Reports what cache `name` holds (bound: passed as a callback). */
  readonly watchCache = (name: string, held: () => CacheHeld) => {
    this.#caches.set(name, held);
  };
  /** The bytes all watched caches hold now, by their own estimates. */
  cacheBytes(): number {
    let bytes = 0;
    for (const held of this.#caches.values()) bytes += held().bytes;
    return bytes;
  }
  /** Counts one map read answered by the response cache (bound: passed as a callback). */
  readonly storedAnswer = (outcome: StoredAnswerOutcome) => {
    this.#storedAnswersPending[outcome]++;
  };
  readonly #db: Database;
  readonly #logError: (error: unknown) => void;

  constructor(db: Database, logError: (error: unknown) => void) {
    this.#db = db;
    this.#logError = logError;
    collectDefaultMetrics({ register: this.registry });
    const read = db.read;
    // Runs are rows: every instance reports the same totals, read when Prometheus scrapes.
    new Gauge({
      name: 'thinkingmap_runs',
      help: 'Agent runs in the database, by status (read on each scrape; the same on every instance).',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const counts = await read.agentRun.groupBy({ by: ['status'], _count: { _all: true } });
        for (const status of Object.values(RunStatus)) {
          this.set({ status }, counts.find((c) => c.status === status)?._count._all ?? 0);
        }
      },
    });
  }

  /** Counts published events (wraps the bus' publish). */
  countPublished(events: readonly MapEvent[]): void {
    for (const event of events) this.eventsPublished.inc({ type: event.type });
  }

  /** Observes committed events: an answered question's wait, from its row's creation to its answer. */
  onCommitted(events: readonly MapEvent[]): void {
    for (const event of events) {
      if (event.type !== 'QuestionResolved' || event.payload.question.status !== QuestionStatus.ANSWERED) continue;
      const { id, kind } = event.payload.question;
      this.#db.read.agentQuestion
        .findUnique({ where: { id }, select: { createdAt: true, answeredAt: true } })
        .then((row) => {
          if (row?.answeredAt) this.questionWait.observe({ kind }, (+row.answeredAt - +row.createdAt) / 1000);
        })
        .catch(this.#logError);
    }
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
