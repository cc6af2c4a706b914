import { describe, expect, it } from 'vitest';
import { finalSources } from './final-sources.ts';
import type { TaskOutcome } from './state.ts';

const outcome = (key: string, name: string, status: TaskOutcome['status'], sources: TaskOutcome['sources'] = []) => ({
  key,
  level: 1,
  nodeId: `node-${key}`,
  name,
  skill: 'webSearch' as const,
  status,
  text: status === 'DONE' ? `result of ${name}` : '',
  reason: null,
  sources,
});

const results: TaskOutcome[] = [
  outcome('L1.T1', 'rents', 'DONE', [
    { title: 'Café rents 2026', uri: 'https://example.org/rents' },
    { title: 'Café rents 2026', uri: 'https://example.org/rents' },
  ]),
  outcome('L1.T2', 'law', 'DONE', [{ title: 'leases.md', uri: 'file://leases.md' }, { title: 'Lease handbook' }]),
  outcome('L1.T3', 'permits', 'FAILED'),
];

describe('the final output’s sources', () => {
  it('should list the finished tasks it cites with their pages and documents, each once', () => {
    const sources = finalSources('en', 'Rents rose [L1.T2].', results);
    expect(sources).toEqual({
      drewOn: ['L1.T2'],
      unknown: [],
      section: '## Sources\n\n- [L1.T2] law\n  - [leases.md](file://leases.md)\n  - Lease handbook',
    });
  });

  it('should list every finished task when it cites none, and name the keys it cites that are no finished task', () => {
    const sources = finalSources('zh', '见 [L1.T3] 与 [L2.T1]。', results);
    expect(sources.drewOn).toEqual(['L1.T1', 'L1.T2']);
    expect(sources.unknown).toEqual(['L1.T3', 'L2.T1']);
    expect(sources.section).toBe(
      '## 来源\n\n- [L1.T1] rents\n  - [Café rents 2026](https://example.org/rents)\n- [L1.T2] law\n  - [leases.md](file://leases.md)\n  - Lease handbook\n\n文中引用了这些编号，但没有对应的已完成任务：L1.T3, L2.T1',
    );
  });
});
