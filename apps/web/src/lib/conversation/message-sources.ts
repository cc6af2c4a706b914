import { isRecord, recordOf } from '../api/json.ts';

/** A source a retrieval result came from. */
export interface MessageSource {
  title: string;
  uri?: string;
}

/** The sources a RAG message carries in `metadata.sources` (agents write them there); unknown shapes give none. */
export function messageSources(metadata: unknown): MessageSource[] {
  const raw = recordOf(metadata).sources;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((source): MessageSource[] => {
    if (typeof source === 'string') return [{ title: source, ...(/^https?:\/\//.test(source) ? { uri: source } : {}) }];
    if (!isRecord(source)) return [];
    const { title, uri, url, name } = source;
    const link = typeof uri === 'string' ? uri : typeof url === 'string' ? url : undefined;
    const label = typeof title === 'string' ? title : typeof name === 'string' ? name : link;
    return label ? [{ title: label, ...(link ? { uri: link } : {}) }] : [];
  });
}
