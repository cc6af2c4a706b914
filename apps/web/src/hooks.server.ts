import type { Handle } from '@sveltejs/kit';
import { preloadScript } from '$lib/api/preload.ts';
import { workspaceRequests } from '$lib/map/load-workspace.ts';

/**
 * The workspace renders in the browser only; its page's HTML starts the map's first reads itself, so they run
 * while the app's code downloads instead of after it (the API client takes their answers).
 */
export const handle: Handle = ({ event, resolve }) => {
  const mapId = event.route.id === '/maps/[id]' ? event.params.id : undefined;
  if (!mapId) return resolve(event);
  const script = preloadScript(workspaceRequests(mapId));
  return resolve(event, { transformPageChunk: ({ html }) => html.replace('<!--tm:preload-->', script) });
};
