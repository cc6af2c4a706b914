/** Puts rows loaded with `id IN (…)` back in the order of `ids`, dropping ids that matched no row. */
export function inOrder<T extends { id: string }>(rows: readonly T[], ids: readonly string[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}
