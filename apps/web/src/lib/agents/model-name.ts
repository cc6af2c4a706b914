/**
 * The model's name as a person reads it, from the API's label (`gpt-4o via https://…`): the name alone, no
 * address or configuration text. The offline model is named by the interface, not by its label.
 */
export function modelName(label: string): string {
  return (
    label
      .replace(/\s+via\s+\S+/gi, '')
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')
      .replace(/\([^)]*\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b[^)]*\)/g, '')
      .replace(/\s+/g, ' ')
      .trim() || '—'
  );
}
