import {
  AgentError,
  BUDGET_RULES,
  type BudgetRules,
  type BudgetStanding,
  budgetExhausted,
  grantFor,
  type ModelUsage,
  type TokenLedger,
  type TokenReservation,
} from '@thinkingmap/agent-core';
import type { Database, Language, Tx } from '@thinkingmap/db';
import { lockMap } from '../commands/mutate-map.ts';
import type { EventBus } from '../events/event-bus.ts';

/** How long a call refused for want of budget waits for calls in progress to settle (default 60 s). */
export const BUDGET_WAIT_MS = 60_000;
/** How often a waiting call looks again when no settle in this process woke it (calls held elsewhere). */
const POLL_MS = 1_000;

/** Options of {@link MapTokenLedgers}. */
export interface MapTokenLedgerOptions {
  rules?: BudgetRules;
  /**
   * Where a map's spending is announced once committed (the bus' `map-row-changed` signal, to every instance): the
   * change makes no event, and the map-read cache keys answers by the map's `tokensUsed`.
   */
  bus?: Pick<EventBus, 'signal'>;
  waitMs?: number;
}

type Attempt =
  | { kind: 'unlimited' }
  | { kind: 'granted'; maxTokens: number; tokens: number }
  | { kind: 'refused'; standing: BudgetStanding };

/**
 * The token budgets of maps, shared by every run on a map at once, kept in the database so that several
 * server instances share them too. A model call reserves, under the map's row lock, its prompt's estimate and
 * its answer's cap, added to its run's `AgentRun.tokensReserved`, when the map's budget, less what was spent and
 * what the RUNNING runs hold (this run's other calls in flight included: a divergent level's parallel tasks are
 * calls of one run), allows it (`grantFor`); it settles after with its real usage, which goes to the map's
 * `tokensUsed` and the run's tokens at once, and takes its reservation off its run. A call refused while
 * others hold tokens waits for them to settle (woken by settles in this process, else looking again every
 * second), then is refused with `BUDGET_EXHAUSTED` if the budget still cannot hold it. A run that died holds
 * nothing: only RUNNING runs count, a run that pauses or ends holds nothing, and the instance that claims an
 * abandoned run clears what its dead drive held (`recover-runs.ts`).
 *
 * The one write to a map's data beside `mutateMap`, on purpose. Its writes (a run's `tokensReserved`, a
 * run's `promptTokens`/`completionTokens`, the map's `tokensUsed`) are coordination between runs, like a
 * run's lease: they make no event (dashboards read the runs' figures; a change of `map.tokensUsed`, which is in the read
 * cache's key, is announced on the bus so every instance reads the map's row again, see `http/map-versions.ts`), need no receipt (no idempotency key: a repeated model call spent
 * its tokens again) and no access check (the run acts as the owner it was started by). What `mutateMap` would
 * add is a read of the whole map row on each settle and the owner check, on every model call of a budgeted map
 * (the cost is in docs/performance.md).
 * The guarantees are `mutateMap`'s: each write is one transaction through the single write path
 * (`Database.write`, SQLite's one-writer queue) that takes the map's row lock first ({@link lockMap}), so
 * reservations never race, and the locks are taken in one order (map, then run): a settle that updated its
 * run's row before the map's could deadlock on PostgreSQL with a reservation of the same run's parallel calls.
 */
export class MapTokenLedgers {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #rules: BudgetRules;
  readonly #waitMs: number;
  readonly #bus: Pick<EventBus, 'signal'> | undefined;

  constructor(
    private readonly db: Database,
    options: MapTokenLedgerOptions = {},
  ) {
    this.#rules = options.rules ?? BUDGET_RULES;
    this.#waitMs = options.waitMs ?? BUDGET_WAIT_MS;
    this.#bus = options.bus;
  }

  /** The ledger one drive of `run` meters its model calls with; refusals are written in `language`. */
  forRun(run: { id: string; mapId: string }, language: Language): TokenLedger {
    return { reserve: (promptTokens, signal) => this.#reserve(run, language, promptTokens, signal) };
  }

  async #reserve(
    run: { id: string; mapId: string },
    language: Language,
    promptTokens: number,
    signal?: AbortSignal,
  ): Promise<TokenReservation> {
    const deadline = Date.now() + this.#waitMs;
    for (;;) {
      if (signal?.aborted) throw new AgentError('CANCELLED', 'model call cancelled');
      const attempt = await this.#attempt(run, promptTokens);
      if (attempt.kind === 'unlimited') return this.#reservation(run, null, 0);
      if (attempt.kind === 'granted') return this.#reservation(run, attempt.maxTokens, attempt.tokens);
      const others = attempt.standing.reserved > 0;
      if (!others || Date.now() >= deadline) throw budgetExhausted(attempt.standing, promptTokens, language);
      await this.#settled(run.mapId, Math.min(POLL_MS, deadline - Date.now()), signal);
    }
  }

  #attempt(run: { id: string; mapId: string }, promptTokens: number): Promise<Attempt> {
    return this.#locked(run.mapId, async (tx): Promise<Attempt> => {
      const map = await tx.map.findUnique({
        where: { id: run.mapId },
        select: { tokenBudget: true, tokensUsed: true },
      });
      if (!map || map.tokenBudget === null) return { kind: 'unlimited' };
      const held = await tx.agentRun.aggregate({
        where: { mapId: run.mapId, OR: [{ status: 'RUNNING' }, { id: run.id }] },
        _sum: { tokensReserved: true },
      });
      const standing = { budget: map.tokenBudget, spent: map.tokensUsed, reserved: held._sum.tokensReserved ?? 0 };
      const grant = grantFor(standing, promptTokens, this.#rules);
      if (!grant.ok) return { kind: 'refused', standing };
      await tx.agentRun.update({ where: { id: run.id }, data: { tokensReserved: { increment: grant.tokens } } });
      return { kind: 'granted', maxTokens: grant.maxTokens, tokens: grant.tokens };
    });
  }

  #reservation(run: { id: string; mapId: string }, maxTokens: number | null, tokens: number): TokenReservation {
    return {
      maxTokens,
      settle: async (usage: ModelUsage) => {
        const spent = usage.promptTokens + usage.completionTokens;
        await this.#locked(run.mapId, async (tx) => {
          await tx.agentRun.updateMany({
            where: { id: run.id },
            data: {
              ...(tokens ? { tokensReserved: { decrement: tokens } } : {}),
              promptTokens: { increment: usage.promptTokens },
              completionTokens: { increment: usage.completionTokens },
              ...(usage.estimated ? { tokensEstimated: true } : {}),
            },
          });
          // The run paused, ended or was claimed while the call was in flight: it held nothing any more.
          if (tokens)
            await tx.agentRun.updateMany({
              where: { id: run.id, tokensReserved: { lt: 0 } },
              data: { tokensReserved: 0 },
            });
          if (spent) await tx.map.updateMany({ where: { id: run.mapId }, data: { tokensUsed: { increment: spent } } });
        });
        if (spent) this.#bus?.signal({ type: 'map-row-changed', mapId: run.mapId });
        for (const wake of this.#waiters.get(run.mapId) ?? []) wake();
      },
    };
  }

  /** Runs `work` in one write transaction that first takes `mapId`'s row lock, as `mutateMap` does. */
  #locked<T>(mapId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(async (tx) => {
      await lockMap({ db: this.db }, tx, mapId);
      return work(tx);
    });
  }

  /** Resolves when a call on `mapId` settles in this process, after `ms`, or when `signal` aborts. */
  #settled(mapId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(mapId) ?? new Set();
      this.#waiters.set(mapId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && this.#waiters.get(mapId) === waiters) this.#waiters.delete(mapId);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}
