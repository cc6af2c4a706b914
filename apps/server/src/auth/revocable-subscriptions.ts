import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Access } from './access.ts';
import type { TokenRevocations } from './token-revocations.ts';

type Result = Record<string, unknown>;

/** The last message a subscription sends when its token was revoked or ran out. */
export const TOKEN_ENDED = 'the token of this subscription was revoked or expired';

/**
 * Wraps a subscription's results so that it ends when its token is revoked (on any instance) or expires: the
 * client receives one error naming why, then the stream completes. Written as an iterator object rather than an
 * async generator so that `return()` reaches the source at once even while it waits for its next event.
 */
export function endWhenTokenEnds(
  source: AsyncIterable<Result>,
  access: Access,
  revocations: TokenRevocations,
): AsyncIterableIterator<Result> {
  const iterator = source[Symbol.asyncIterator]();
  let ended: (() => void) | undefined;
  const ending = new Promise<'ended'>((resolve) => {
    ended = () => resolve('ended');
  });
  const untrack = access.tokenId ? revocations.track(access.tokenId, () => ended?.()) : () => {};
  const untilExpiry = access.expiresAt ? access.expiresAt.getTime() - Date.now() : Number.POSITIVE_INFINITY;
  const timer = untilExpiry < 2 ** 31 ? setTimeout(() => ended?.(), Math.max(0, untilExpiry)) : undefined;
  timer?.unref();
  let done = false;
  const finish = async (): Promise<IteratorResult<Result>> => {
    if (!done) {
      done = true;
      untrack();
      clearTimeout(timer);
      await iterator.return?.();
    }
    return { value: undefined, done: true };
  };
  return {
    async next() {
      if (done) return { value: undefined, done: true };
      const next = await Promise.race([iterator.next(), ending]);
      if (next === 'ended') {
        await finish();
        const error = new GraphQLError(TOKEN_ENDED, { extensions: { code: 'UNAUTHENTICATED' } });
        return { value: { errors: [error] }, done: false };
      }
      if (next.done) await finish();
      return next;
    },
    return: finish,
    async throw(error) {
      await finish();
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
      if (!access?.tokenId && !access?.expiresAt) return;
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
