import type { Plugin } from 'graphql-yoga';
import type { Access } from '../commands/access.ts';
import { LIMIT_CODES, limitError } from './query-limits.ts';

/** How many subscriptions may be open at once on this instance. */
export interface SubscriptionCaps {
  /** On one graphql-ws connection (100). */
  perConnection: number;
  /** With one token, over every transport and connection (1,000); the embedded local user counts as one token. */
  perToken: number;
}

/** The defaults of {@link SubscriptionCaps}. */
export const DEFAULT_SUBSCRIPTION_CAPS: SubscriptionCaps = { perConnection: 100, perToken: 1_000 };

/** Open subscriptions by key; a key is dropped when its count falls to zero. */
class Counts<K> {
  readonly #counts = new Map<K, number>();
  of(key: K): number {
    return this.#counts.get(key) ?? 0;
  }
  add(key: K, delta: number): void {
    const next = this.of(key) + delta;
    if (next > 0) this.#counts.set(key, next);
    else this.#counts.delete(key);
  }
}

const refusal = (cap: number, per: string) =>
  limitError(
    LIMIT_CODES.subscriptions,
    `Subscription limit of ${cap} per ${per} exceeded: end one before starting another.`,
  );

/** The WebSocket close code for a connection that kept asking past its cap (graphql-ws' 4429 is "too many"). */
export const FLOOD_CLOSE_CODE = 4429;

/**
 * Caps the operations one graphql-ws connection holds. `admit` is called first thing for each operation, so a refusal
 * costs no parse, validation or context; a connection refused `cap` times more is closed (`flooding`), since sending
 * each refusal back is what thousands of them cost. An admitted operation counts until it leaves graphql-ws' own
 * record of the connection's operations, however it ends; ended ones are dropped from the count when it reaches the
 * cap. The refusal is one error made once (an error's stack trace cost more than the rest of a refusal).
 */
export function connectionCap(cap: number) {
  const admitted = new WeakMap<object, { ids: Set<string>; refused: number }>();
  const errors = [refusal(cap, 'connection')];
  return {
    reason: `Subscription limit of ${cap} per connection exceeded`,
    /** Null when `id` may run on the connection whose operations are `subscriptions`; else the refusal. */
    admit(subscriptions: Record<string, unknown>, id: string) {
      const held = admitted.get(subscriptions) ?? { ids: new Set<string>(), refused: 0 };
      admitted.set(subscriptions, held);
      const { ids } = held;
      if (ids.size >= cap) for (const open of ids) if (!(open in subscriptions)) ids.delete(open);
      if (ids.size < cap) {
        ids.add(id);
        return null;
      }
      held.refused += 1;
      return { errors, flooding: held.refused >= cap };
    },
  };
}

/**
 * Caps the subscriptions open at once with one token, over every transport and connection (SSE and WebSocket
 * alike): one more is answered with one error naming the cap (`SUBSCRIPTION_LIMIT`) and nothing runs for it. A
 * subscription counts from its start until it ends however it ends (completed, refused by its resolver, its
 * connection closed). Per connection, see {@link connectionCap}.
 */
export function useSubscriptionCaps(caps: Pick<SubscriptionCaps, 'perToken'>): Plugin<{ access?: Access }> {
  const perToken = new Counts<string>();
  const refused = [refusal(caps.perToken, 'token')];
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const access = args.contextValue.access;
      if (!access) return;
      const token = access.tokenId ?? `user:${access.viewer.id}`;
      if (perToken.of(token) >= caps.perToken) {
        setResultAndStopExecution({ errors: refused });
        return;
      }
      perToken.add(token, 1);
      let open = true;
      const end = () => {
        if (!open) return;
        open = false;
        perToken.add(token, -1);
      };
      return {
        onSubscribeResult({ result }) {
          if (!(Symbol.asyncIterator in result)) return end();
          return { onEnd: end };
        },
        onSubscribeError: end,
      };
    },
  };
}
