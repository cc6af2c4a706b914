const KEY_PREFIX = 'thinkingmap.folded.';

/**
 * Which branches of one map are folded, remembered in the browser per map (localStorage), so a big map opens
 * the way the person left it. Shared by the canvas and the outline: folding in one folds in the other.
 */
export class FoldState {
  folded = $state.raw<ReadonlySet<string>>(new Set());

  constructor(
    private readonly mapId: string,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
  ) {
    try {
      const saved: unknown = JSON.parse(storage?.getItem(KEY_PREFIX + mapId) ?? '[]');
      if (Array.isArray(saved)) this.folded = new Set(saved.filter((id): id is string => typeof id === 'string'));
    } catch {
      // A value another version wrote: start unfolded.
    }
  }

  /** Whether the branch below `id` is folded. */
  isFolded(id: string): boolean {
    return this.folded.has(id);
  }

  /** Folds the branch below `id`. */
  fold(id: string): void {
    if (!this.folded.has(id)) this.#set(new Set([...this.folded, id]));
  }

  /** Unfolds the branch below `id`. */
  unfold(id: string): void {
    if (this.folded.has(id)) this.#set(new Set([...this.folded].filter((f) => f !== id)));
  }

  /** Folds or unfolds the branch below `id`. */
  toggle(id: string): void {
    if (this.folded.has(id)) this.unfold(id);
    else this.fold(id);
  }

  /** Unfolds every one of `ids` (the ancestors of a node to show). */
  reveal(ids: readonly string[]): void {
    if (ids.some((id) => this.folded.has(id))) this.#set(new Set([...this.folded].filter((f) => !ids.includes(f))));
  }

  #set(folded: Set<string>): void {
    this.folded = folded;
    if (folded.size) this.storage?.setItem(KEY_PREFIX + this.mapId, JSON.stringify([...folded]));
    else this.storage?.removeItem(KEY_PREFIX + this.mapId);
  }
}
