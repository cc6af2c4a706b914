import { session } from '$lib/api/session.svelte.ts';
import { loadWorkspace } from '$lib/map/load-workspace.ts';
import type { PageLoad } from './$types';

/** Starts loading the map while the workspace's code loads (not awaited: the page shows its own progress). */
export const load: PageLoad = ({ params }) => ({
  first: { mapId: params.id, load: loadWorkspace(session.api.client, params.id) },
});
