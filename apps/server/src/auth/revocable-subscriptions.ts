import { type ExecutionResult, GraphQLError } from 'graphql';
import { type Plugin, Repeater } from 'graphql-yoga';
import type { Access } from '../commands/access.ts';
import type { TokenEnd, TokenRevocations } from './token-revocations.ts';

type Result = ExecutionResult;

/** The last message a subscription sends when its token was revoked or ran out (`extensions.reason` says which). */
export const TOKEN_ENDED: Record<TokenEnd, string> = {
  REVOKED: 'the token of this subscription was revoked',
  EXPIRED: 'the token of this subscription expired',
};

/**
 * Wraps a subscription's results so that it ends when its token is revoked (on any instance) or expires: the
 * client receives one error (`UNAUTHENTICATED`, with `reason` `REVOKED` or `EXPIRED`), then the stream completes.
 * A Repeater, so that `return()` reaches the source at once even while it waits for its next event, and so that
 * waiting for the token's end costs nothing per event (racing every `next()` against one long-lived promise kept a
 * reaction per event delivered until the subscription ended). The connection carrying it is closed only once that
 * error was taken.
 */
export function endWhenTokenEnds(
  source: AsyncIterable<Result>,
  access: Access,
  revocations: TokenRevocations,
): Repeater<Result> {
  return new Repeater<Result>(async (push, stop) => {
    const iterator = source[Symbol.asyncIterator]();
    let ended = false;
    const untrack = revocations.track(access, async (why) => {
      if (ended) return;
      ended = true;
      const error = new GraphQLError(TOKEN_ENDED[why], { extensions: { code: 'UNAUTHENTICATED', reason: why } });
      // Resolves once the client asked for what follows the error: it was taken.
      const taken = push({ errors: [error] });
      stop();
      await taken;
    });
    void stop.then(() => {
      untrack();
      void iterator.return?.();
    });
    try {
      for (let result = await iterator.next(); !result.done && !ended; result = await iterator.next()) {
        await push(result.value);
      }
    } finally {
      untrack();
      stop();
    }
  });
}

/**
 * An envelop plugin that ends every subscription (SSE or WebSocket) of a token when the token is revoked or
 * expires; see {@link endWhenTokenEnds}. The WebSocket itself is closed by the server's graphql-ws wiring.
 */
export function useRevocableSubscriptions(revocations: TokenRevocations): Plugin<{ access?: Access }> {
  return {
    onSubscribe({ args }) {
      const access = args.contextValue.access;
      if (!access?.tokenId) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) {
            setResult(endWhenTokenEnds(result, access, revocations));
          }
        },
      };
    },
  };
}
