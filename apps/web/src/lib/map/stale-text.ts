import type { Language, StaleReason } from '@thinkingmap/db/enums';
import { LABELS } from '@thinkingmap/map-markdown';

/**
 * The words for a conclusion out of date, and for why, in `language`: the same ones the Markdown export and
 * the MCP tools use (`@thinkingmap/map-markdown`'s labels), so the product says it one way everywhere.
 */
export function staleText(language: Language, reason: StaleReason): { title: string; reason: string } {
  const labels = LABELS[language];
  return { title: labels.outOfDate, reason: labels.staleReason[reason] };
}
