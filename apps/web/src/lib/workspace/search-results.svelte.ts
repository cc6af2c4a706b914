import { treeOrder } from '@thinkingmap/map-graph';
import { type SearchHit, searchMap } from '../map/map-search.ts';
import type { MapStore } from '../map/map-store.svelte.ts';
import { siblingOrder } from '../map/tree-structure.ts';
import type { WorkspaceUi } from './workspace-ui.svelte.ts';

/** The nodes matching the workspace's search, in reading order (folded ones too), shared by the search box and the canvas. */
export class SearchResults {
  readonly #store: MapStore;
  readonly #ui: WorkspaceUi;

  constructor(store: MapStore, ui: WorkspaceUi) {
    this.#store = store;
    this.#ui = ui;
  }

  /** Whether a search is on. */
  readonly active: boolean = $derived.by(() => this.#ui.query.trim().length > 0);

  /** The matching nodes. */
  readonly hits: SearchHit[] = $derived.by(() =>
    this.active
      ? searchMap(
          treeOrder(Object.values(this.#store.nodes), siblingOrder).map((placed) => placed.node),
          this.#ui.query,
        )
      : [],
  );

  /** The ids of the matching nodes. */
  readonly ids: ReadonlySet<string> = $derived.by(() => new Set(this.hits.map((hit) => hit.id)));
}
