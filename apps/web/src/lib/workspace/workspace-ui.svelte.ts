/** A refused dependency's cycle: `path[0]` would have waited for `path[1]`, which waits for `path[2]`, … back to `path[0]`. */
export interface CycleHighlight {
  path: string[];
}

const OUTLINE_KEY = 'thinkingmap.outline';

/**
 * What the workspace shows around the map, shared by the canvas, the outline, the search and the panel: the
 * selected node, a node to bring into view, a refused cycle to highlight, the search, which conclusions are
 * open on the cards, and which views are open.
 */
export class WorkspaceUi {
  selectedId = $state<string | null>(null);
  /** A node to bring into view (a new `seq` asks again for the same node). */
  reveal = $state<{ id: string; seq: number } | null>(null);
  cycle = $state<CycleHighlight | null>(null);
  query = $state('');
  /** The search hit the person is on. */
  currentHit = $state<string | null>(null);
  /** Every concluded card shows its conclusion. */
  showConclusions = $state(false);
  /** Cards whose conclusion the person opened one by one. */
  expanded = $state.raw<ReadonlySet<string>>(new Set());
  /** The outline beside the canvas (wide screens). */
  outlineOpen = $state(false);
  /** What a narrow screen shows: the map or the outline. */
  narrowView = $state<'map' | 'outline'>('map');
  /** The run whose view is open (its graph with the path it took), if any. */
  runViewId = $state<string | null>(null);
  /** The divergent exploration flow: null follows the map (open when it explores divergently), else the person's choice. */
  flowChoice = $state<boolean | null>(null);
  #seq = 0;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = null) {
    this.outlineOpen = storage?.getItem(OUTLINE_KEY) === 'open';
  }

  /** Asks the canvas (and the outline) to show `id`, unfolding what hides it. */
  requestReveal(id: string): void {
    this.reveal = { id, seq: ++this.#seq };
  }

  /** Opens the view of a run: its graph with the path it took, live while it runs. */
  openRun(runId: string): void {
    this.runViewId = runId;
  }

  /** Opens or closes one card's conclusion. */
  toggleExpanded(id: string): void {
    const next = new Set(this.expanded);
    if (!next.delete(id)) next.add(id);
    this.expanded = next;
  }

  /** Shows or hides the outline beside the canvas, and remembers it. */
  setOutlineOpen(open: boolean): void {
    this.outlineOpen = open;
    this.storage?.setItem(OUTLINE_KEY, open ? 'open' : 'closed');
  }
}
