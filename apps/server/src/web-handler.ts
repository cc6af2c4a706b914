import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoDir } from '@thinkingmap/db';

/** A connect-style handler, as SvelteKit's adapter-node builds it. */
export type WebHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The built web workspace (apps/web/build/handler.js), or null when it has not been built. */
export async function loadWebHandler(buildDir = join(repoDir, 'apps/web/build')): Promise<WebHandler | null> {
  const file = join(buildDir, 'handler.js');
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as { handler: WebHandler };
  return module.handler;
}
