import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Where graphql-sse's single connection mode is served (reserve with PUT, stream with GET, operations by POST). */
export const SSE_STREAM_PATH = '/graphql/stream';

/**
 * graphql-sse's single connection mode, through Yoga's graphql-sse plugin (its distinct connections mode is served at
 * /graphql by Yoga itself). graphql-sse's handler only takes a result with a `data` key for a finished operation;
 * a subscription refused before it starts (`mapId: is not a valid id`, a map of someone else) is `{ errors }` in
 * graphql-js, which the handler mistakes for execution arguments and answers "400 Bad Request" without the
 * errors. Such a result gets `data: null` here, so the client receives the typed error as on the other transports.
 */
export function useSseSingleConnection(): Plugin[] {
  return [
    useGraphQLSSE({ endpoint: SSE_STREAM_PATH }),
    {
      onSubscribe({ args }) {
        const request = (args.contextValue as { request?: Request }).request;
        if (!request || new URL(request.url).pathname !== SSE_STREAM_PATH) return;
        return {
          onSubscribeResult({ result, setResult }) {
            if (!(Symbol.asyncIterator in result) && !('data' in result)) {
              setResult({ ...(result as ExecutionResult), data: null });
            }
          },
        };
      },
    },
  ];
}
