import type { Language } from '../../domain/enums.ts';
import type { KnowledgeSource } from '../../ports/knowledge-port.ts';
import type { TaskOutcome } from './state.ts';

/** A task key as documents cite it: `L1.T2`, in square brackets. */
const CITATION = /\[(L\d+\.T\d+)\]/g;

const TEXT = {
  en: {
    heading: 'Sources',
    none: 'No task of this session finished; nothing was drawn on.',
    unknown: 'Cited, but no finished task has this key: ',
  },
  zh: {
    heading: '来源',
    none: '本次探索没有完成的任务，没有可依据的结果。',
    unknown: '文中引用了这些编号，但没有对应的已完成任务：',
  },
} as const;

/** What the final output drew on, checked against the session's finished tasks, and its Sources section. */
export interface FinalSources {
  /**
   * Keys of the finished tasks the output drew on: those its text cites, or every finished task it was
   * written from when it cites none.
   */
  drewOn: string[];
  /** Keys the text cites that name no finished task. */
  unknown: string[];
  /** The Markdown section the output ends with: each task drawn on with its key, name and sources. */
  section: string;
}

/** One source as a Markdown list item: a link when it has an address. */
const sourceLine = (source: KnowledgeSource) =>
  source.uri ? `  - [${source.title || source.uri}](${source.uri})` : `  - ${source.title}`;

/**
 * Checks the final output's citations of task keys against the finished tasks (`results` with status DONE)
 * and writes its Sources section from them, in the map's language: per task drawn on, its key and name, then
 * what it found — the web pages (title and address) and library documents — each once.
 */
export function finalSources(language: Language, text: string, results: readonly TaskOutcome[]): FinalSources {
  const t = TEXT[language];
  const finished = results.filter((r) => r.status === 'DONE');
  const known = new Set(finished.map((r) => r.key));
  const cited = [...new Set([...text.matchAll(CITATION)].map((m) => m[1]!))];
  const citedKnown = new Set(cited.filter((key) => known.has(key)));
  const drawnOn = citedKnown.size ? finished.filter((r) => citedKnown.has(r.key)) : finished;
  const unknown = cited.filter((key) => !known.has(key));
  const lines = drawnOn.flatMap((r) => {
    const seen = new Set<string>();
    const sources = r.sources.filter((s) => {
      const id = s.uri ?? s.title;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    return [`- [${r.key}] ${r.name}`, ...sources.map(sourceLine)];
  });
  if (lines.length === 0) lines.push(t.none);
  if (unknown.length) lines.push('', `${t.unknown}${unknown.join(', ')}`);
  return { drewOn: drawnOn.map((r) => r.key), unknown, section: `## ${t.heading}\n\n${lines.join('\n')}` };
}
