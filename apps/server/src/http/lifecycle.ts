import type { Server } from 'node:http';

/** A listener started before the API and stopped first (the operators' private one, `metricsPort`). */
export interface SideListener {
  start(port: number, host: string): Promise<string>;
  stop(): Promise<void>;
}

/** Options of {@link createLifecycle}. */
export interface LifecycleOptions {
  /** The API's HTTP server (GraphQL, SSE, WebSocket, MCP, web). */
  server: Server;
  /** The operators' listener and where it listens, when configured. */
  side?: { listener: SideListener; port: number; host: string } | null;
  /**
   * Run in order on stop, after the side listener stopped and while the API still answers: background work stops,
   * work in progress reaches a point it can resume from, WebSockets close.
   */
  draining: readonly (() => unknown)[];
  /** Run in order once the API's server is closed: what the app owns (event bus, database). */
  closing: readonly (() => unknown)[];
}

/** Start and stop of a built app. */
export interface Lifecycle {
  /** Listens (port 0 = any free port); resolves with the base URL. */
  start(port?: number, host?: string): Promise<string>;
  stop(): Promise<void>;
  /** The API's base URL once started. */
  url(): string;
  /** The side listener's base URL once started; null without one. */
  sideUrl(): string | null;
}

/** Runs `task` every `ms` without keeping the process alive; a failure is logged. Returns the stop. */
export function every(ms: number, task: () => Promise<unknown>, logError: (error: unknown) => void): () => void {
  const timer = setInterval(() => void task().catch(logError), ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** Starts and stops the app's listeners and what they depend on, in a fixed order (see {@link LifecycleOptions}). */
export function createLifecycle(options: LifecycleOptions): Lifecycle {
  const { server, side } = options;
  let baseUrl = '';
  let sideUrl: string | null = null;
  return {
    url: () => baseUrl,
    sideUrl: () => sideUrl,
    async start(port = 0, host = '127.0.0.1') {
      if (side) sideUrl = await side.listener.start(side.port, side.host);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          if (address === null || typeof address === 'string')
            return reject(new Error('the server listens on no port'));
          baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          resolve(baseUrl);
        });
      });
    },
    async stop() {
      await side?.listener.stop();
      for (const step of options.draining) await step();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const step of options.closing) await step();
    },
  };
}
