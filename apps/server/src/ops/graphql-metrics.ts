import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { propertyOf } from '../commands/input.ts';
import type { ServerMetrics, SubscriptionTransport } from './metrics.ts';

/**
 * Yoga plugins reporting GraphQL traffic into the app's registry: `@graphql-yoga/plugin-prometheus` for
 * operation counts, latency and errors by operation type (`graphql_envelop_request`,
 * `graphql_envelop_request_duration`, `graphql_envelop_error_result`, `graphql_yoga_http_duration`), and open
 * subscriptions and their deliveries by transport. The operation name is left out of the labels: clients choose
 * it, so it would let them grow the series without bound. The plugin's own `/metrics` route is off: metrics are
 * served by ops-routes.ts, where access is decided.
 */
export function graphqlMetricsPlugins(metrics: ServerMetrics): Plugin[] {
  return [
    usePrometheus({
      registry: metrics.registry,
      endpoint: false,
      labels: { operationName: false, method: false, statusCode: true, url: false },
      metrics: {
        graphql_envelop_request: true,
        graphql_envelop_request_duration: true,
        graphql_envelop_error_result: true,
        graphql_yoga_http_duration: true,
      },
    }),
    useSubscriptionMetrics(metrics),
  ];
}

/** Counts open subscriptions and the results they send, by transport (a graphql-ws context carries its socket). */
function useSubscriptionMetrics(metrics: ServerMetrics): Plugin {
  return {
    onSubscribe({ args }) {
      const transport: SubscriptionTransport = propertyOf(args.contextValue, 'socket') !== undefined ? 'ws' : 'sse';
      return {
        onSubscribeResult({ result }) {
          if (!(Symbol.asyncIterator in result)) return;
          metrics.subscriptionsOpen.inc({ transport });
          let open = true;
          return {
            onNext: () => void metrics.eventsDelivered.inc({ transport }),
            onEnd: () => {
              if (open) metrics.subscriptionsOpen.dec({ transport });
              open = false;
            },
          };
        },
      };
    },
  };
}
