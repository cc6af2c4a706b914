import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createThinkingMapClient, type ThinkingMapClient } from '@thinkingmap/client';
import { createTestDatabase } from '@thinkingmap/db/testing';
import WebSocket from 'ws';
import { startScriptedModel } from './scripted-model.ts';

const buildDir = join(dirname(fileURLToPath(import.meta.url)), '../../../build');

type WebHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The part of @thinkingmap/server's App these tests use (typed locally so the server's own types stay its concern). */
interface App {
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
}

interface ServerModule {
  loadWebHandler(buildDir: string): Promise<WebHandler | null>;
  buildApp(options: {
    db: unknown;
    requireToken: boolean;
    localTokenFile: null;
    webHandler: WebHandler;
    model: unknown;
    notesDir: string;
  }): Promise<App>;
}

/** The real server on a random port over a fresh SQLite database, serving the built web app on its origin. */
export interface WebServer {
  app: App;
  /** The page origin, e.g. http://127.0.0.1:41234 */
  origin: string;
  /** A Node-side API client acting as the same local user (changes "from another place"). */
  api: ThinkingMapClient;
  /** The scripted model's controls (holding a stream half-way). */
  model: {
    holdNextConclusion(): () => void;
    holdNextFrontReply(): () => void;
    holdNextTask(): () => void;
    failNextFrontReply(): void;
  };
  /** The database, for placing what only agents can write (divergent levels). */
  db: Awaited<ReturnType<Awaited<ReturnType<typeof createTestDatabase>>['open']>>;
  close(): Promise<void>;
}

/**
 * Starts a server the way `pnpm start` does (local user, no token file), with the scripted model; `refuse`
 * makes its endpoint refuse request features as some providers do (see `Refusals` in agent-core's testing).
 */
export async function startWebServer(
  options: { refuse?: Parameters<typeof startScriptedModel>[0] } = {},
): Promise<WebServer> {
  const testDb = await createTestDatabase('sqlite');
  const db = await testDb.open();
  const serverEntry = '@thinkingmap/server';
  const { buildApp, loadWebHandler } = (await import(/* @vite-ignore */ serverEntry)) as ServerModule;
  // The built web app as `pnpm start` serves it (its content-hashed files from memory).
  const handler = await loadWebHandler(buildDir);
  if (!handler) throw new Error(`The web app is not built in ${buildDir}`);
  const scripted = await startScriptedModel(options.refuse);
  // Consultation notes go to a folder of this server's own, removed with it.
  const notesDir = await mkdtemp(join(tmpdir(), 'tm-web-notes-'));
  const app = await buildApp({
    notesDir,
    db,
    requireToken: false,
    localTokenFile: null,
    webHandler: handler,
    model: scripted.model,
  });
  const origin = await app.start(0);
  const api = createThinkingMapClient({ url: `${origin}/graphql`, webSocketImpl: WebSocket });
  return {
    app,
    origin,
    api,
    db,
    model: scripted,
    async close() {
      await api.close();
      await app.stop();
      await scripted.close();
      await db.close();
      await testDb.drop();
      await rm(notesDir, { recursive: true, force: true });
    },
  };
}
