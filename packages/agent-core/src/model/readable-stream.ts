import { Allow, parse } from 'partial-json';

/** Renders one field of a (possibly partial) structured answer as text; '' when there is nothing to show. */
export type FieldText = (value: unknown) => string;

/**
 * How a structured answer reads while it is written: the fields to show, each with its renderer. Fields are
 * shown in the order the model writes them, so the text only ever grows.
 */
export type ReadableFields = Record<string, FieldText>;

/** A string field as it is. */
export const asText: FieldText = (value) => (typeof value === 'string' ? value : '');

/** A list of strings (or of objects with a `question` field), one `• ` line each. */
export const asBullets: FieldText = (value) => {
  if (!Array.isArray(value)) return '';
  const lines = value.map((item) =>
    asText(typeof item === 'object' && item !== null ? ('question' in item ? item.question : undefined) : item),
  );
  return lines
    .filter((line) => line.length > 0)
    .map((line) => `• ${line}`)
    .join('\n');
};

/** The text a person reads of a (possibly partial) structured answer. */
export function readableText(value: unknown, fields: ReadableFields): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const render = fields[key];
    const text = render ? render(field) : '';
    if (text) parts.push(text);
  }
  return parts.join('\n');
}

/**
 * Turns the streamed pieces of a JSON answer into the growing text a person reads: each call parses what
 * arrived so far as partial JSON and emits only the new end of the readable text. Raw JSON never reaches
 * `emit`; text that would shrink or change (a malformed stretch) is held back until it grows again.
 */
export function readableStream(fields: ReadableFields, emit: (text: string) => void): (piece: string) => void {
  let raw = '';
  let shown = '';
  return (piece) => {
    raw += piece;
    const start = raw.indexOf('{');
    if (start < 0) return;
    let value: unknown;
    try {
      value = parse(raw.slice(start), Allow.ALL);
    } catch {
      // Not readable yet (partial JSON can be momentarily malformed): wait for the next piece.
      return;
    }
    const text = readableText(value, fields);
    if (text.length > shown.length && text.startsWith(shown)) {
      emit(text.slice(shown.length));
      shown = text;
    }
  };
}
