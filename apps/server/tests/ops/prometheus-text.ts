import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One sample: its labels and value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A scrape parsed by `parse-prometheus-text-format`: samples by series name. A histogram `h` is read as its
 * series `h_bucket`, `h_count` and `h_sum` (the parser drops the labels of labelled histograms), its `type` kept.
 */
export type Scrape = Map<string, { type: string; samples: Sample[] }>;

/** Parses Prometheus' text exposition format (what a Prometheus server scrapes); throws on a malformed line. */
export function parseScrape(text: string): Scrape {
  const histograms = new Set([...text.matchAll(/^# TYPE (\S+) histogram$/gm)].map((m) => m[1]));
  const families = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped')) as {
    name: string;
    type: string;
    metrics: { labels?: Record<string, string>; value?: string; count?: string }[];
  }[];
  // Read as untyped series, a labelled histogram's series alternate (bucket, sum, count per label set): merge them.
  const scrape: Scrape = new Map();
  for (const family of families) {
    const entry = scrape.get(family.name) ?? {
      type: histograms.has(family.name) ? 'HISTOGRAM' : family.type,
      samples: [],
    };
    entry.samples.push(...family.metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value ?? m.count) })));
    scrape.set(family.name, entry);
  }
  return scrape;
}

/** The sum of a family's samples whose labels include `labels` (0 when none). */
export function sampleSum(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = scrape.get(name);
  if (!family) throw new Error(`metric ${name} is not exported`);
  return family.samples
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
