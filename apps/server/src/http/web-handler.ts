import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoDir } from '@thinkingmap/db';
import { immutableAssets } from './web-assets.ts';

/** A connect-style handler, as SvelteKit's adapter-node builds it. */
export type WebHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * The built web workspace (apps/web/build/handler.js), or null when it has not been built; its content-hashed
 * files are answered from memory ({@link immutableAssets}), everything else by the build's handler.
 */
export async function loadWebHandler(buildDir = join(repoDir, 'apps/web/build')): Promise<WebHandler | null> {
  const file = join(buildDir, 'handler.js');
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as { handler: WebHandler };
  const assets = immutableAssets(join(buildDir, 'client'));
  return (req, res, next) => {
    if (!assets(req, res)) module.handler(req, res, next);
  };
}
