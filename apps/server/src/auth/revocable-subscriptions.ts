import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Access } from './access.ts';
import type { TokenEnd, TokenRevocations } from './token-revocations.ts';

type Result = Record<string, unknown>;

/** The last message a subscription sends when its token was revoked or ran out (`extensions.reason` says which). */
export const TOKEN_ENDED: Record<TokenEnd, string> = {
  REVOKED: 'the token of this subscription was revoked',
  EXPIRED: 'the token of this subscription expired',
};

/**
 * Wraps a subscription's results so that it ends when its token is revoked (on any instance) or expires: the
 * client receives one error (`UNAUTHENTICATED`, with `reason` `REVOKED` or `EXPIRED`), then the stream completes.
 * Written as an iterator object rather than an async generator so that `return()` reaches the source at once even
 * while it waits for its next event. The connection carrying it is closed only once that error was taken.
 */
export function endWhenTokenEnds(
  source: AsyncIterable<Result>,
  access: Access,
  revocations: TokenRevocations,
): AsyncIterableIterator<Result> {
  const iterator = source[Symbol.asyncIterator]();
  let ended: ((why: TokenEnd) => void) | undefined;
  const ending = new Promise<TokenEnd>((resolve) => {
    ended = resolve;
  });
  let taken: (() => void) | undefined;
  const lastTaken = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const untrack = revocations.track(access, (why) => {
    ended?.(why);
    return lastTaken;
  });
  let done = false;
  const finish = async (): Promise<IteratorResult<Result>> => {
    if (!done) {
      done = true;
      untrack();
      await iterator.return?.();
    }
    return { value: undefined, done: true };
  };
  const close = async (): Promise<IteratorResult<Result>> => {
    const result = await finish();
    taken?.();
    return result;
  };
  return {
    async next() {
      if (done) return close();
      const next = await Promise.race([iterator.next(), ending]);
      if (typeof next === 'string') {
        await finish();
        const error = new GraphQLError(TOKEN_ENDED[next], { extensions: { code: 'UNAUTHENTICATED', reason: next } });
        return { value: { errors: [error] }, done: false };
      }
      if (next.done) await close();
      return next;
    },
    return: close,
    async throw(error) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * An envelop plugin that ends every subscription (SSE or WebSocket) of a token when the token is revoked or
 * expires; see {@link endWhenTokenEnds}. The WebSocket itself is closed by the server's graphql-ws wiring.
 */
export function useRevocableSubscriptions(revocations: TokenRevocations): Plugin<{ access?: Access }> {
  return {
    onSubscribe({ args }) {
      const access = (args.contextValue as { access?: Access }).access;
      if (!access?.tokenId) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) {
            setResult(endWhenTokenEnds(result as AsyncIterable<Result>, access, revocations) as never);
          }
        },
      };
    },
  };
}
