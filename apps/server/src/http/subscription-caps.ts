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

/**
 * The refusal of one more subscription on a graphql-ws connection holding `cap` already, or null. `subscriptions` is
 * graphql-ws' own record of the connection's operations, which holds each from the moment its message arrives until
 * it ends: checked first thing, a refusal costs no parse, validation or context.
 */
export function connectionCapRefusal(subscriptions: Record<string, unknown>, cap: number) {
  let open = 0;
  // Counted up to the cap only: a connection holding thousands costs each message the cap's count, not thousands.
  for (const _id in subscriptions) if (++open > cap) return refusal(cap, 'connection');
  return null;
}

/**
 * Caps the subscriptions open at once with one token, over every transport and connection (SSE and WebSocket
 * alike): one more is answered with one error naming the cap (`SUBSCRIPTION_LIMIT`) and nothing runs for it. A
 * subscription counts from its start until it ends however it ends (completed, refused by its resolver, its
 * connection closed). Per connection, see {@link connectionCapRefusal}.
 */
export function useSubscriptionCaps(caps: Pick<SubscriptionCaps, 'perToken'>): Plugin<{ access?: Access }> {
  const perToken = new Counts<string>();
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const access = args.contextValue.access;
      if (!access) return;
      const token = access.tokenId ?? `user:${access.viewer.id}`;
      if (perToken.of(token) >= caps.perToken) {
        setResultAndStopExecution({ errors: [refusal(caps.perToken, 'token')] });
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
