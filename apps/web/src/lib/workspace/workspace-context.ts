import { getContext, setContext } from 'svelte';
import type { ReviewDrafts } from '../agents/review-drafts.svelte.ts';
import type { ConsultationState } from '../consultation/consultation-state.svelte.ts';
import type { DivergentSessions } from '../divergent/divergent-sessions.svelte.ts';
import type { FoldState } from '../map/fold-state.svelte.ts';
import type { MapStore } from '../map/map-store.svelte.ts';
import type { SearchResults } from './search-results.svelte.ts';
import type { WorkspaceUi } from './workspace-ui.svelte.ts';

/** What every part of one map's workspace shares. */
export interface Workspace {
  store: MapStore;
  ui: WorkspaceUi;
  fold: FoldState;
  drafts: ReviewDrafts;
  search: SearchResults;
  /** The map's consultations and the consultation panel. */
  consultations: ConsultationState;
  /** The map's divergent sessions, kept current from its events. */
  divergent: DivergentSessions;
  /** Selects a node (opens its panel); `focusPanel` moves the keyboard focus into the panel. */
  select(id: string, options?: { focusPanel?: boolean }): void;
}

const KEY = Symbol('workspace');

/** Makes `workspace` available to the components below (called by the map page). */
export function setWorkspace(workspace: Workspace): Workspace {
  return setContext(KEY, workspace);
}

/** The workspace of the map page this component is part of. */
export function getWorkspace(): Workspace {
  return getContext<Workspace>(KEY);
}
