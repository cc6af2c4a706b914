import { describe, expect, it } from 'vitest';
import { renderMapMarkdown } from './map-markdown.ts';
import type { MapSnapshot, NodeSummary } from './map-snapshot.ts';

const node = (
  id: string,
  parentId: string | null,
  question: string,
  extra: Partial<NodeSummary> = {},
): NodeSummary => ({
  id,
  parentId,
  question,
  goal: '',
  status: 'READY',
  statusReason: null,
  intent: null,
  conclusion: null,
  conclusionKind: null,
  dependsOn: [],
  contextItems: [],
  ...extra,
});

const snapshot = (extra: Partial<MapSnapshot> = {}): MapSnapshot => ({
  id: 'm1',
  title: 'Open a café?',
  problem: 'Should I open a café?',
  goal: 'Decide by June',
  constraints: ['Budget 50k'],
  language: 'en',
  status: 'ACTIVE',
  nodes: [],
  pendingQuestions: [],
  runs: [],
  ...extra,
});

describe('renderMapMarkdown', () => {
  it('should render the tree indented by depth, with statuses, dependencies, context and conclusions', () => {
    const markdown = renderMapMarkdown(
      snapshot({
        nodes: [
          node('r', null, 'Open a café?'),
          node('a', 'r', 'How big is the market?', {
            status: 'COMPLETED',
            conclusion: 'Big enough.\nAbout 3000 cups.',
            conclusionKind: 'ANALYTICAL',
          }),
          node('b', 'r', 'Where?', {
            status: 'BLOCKED',
            dependsOn: ['a'],
            contextItems: [{ id: 'c', title: 'note', content: 'Near the campus' }],
          }),
        ],
      }),
    );
    expect(markdown).toContain('# Open a café?\n\nMap `m1` · active · language en');
    expect(markdown).toContain('**Goal:** Decide by June');
    expect(markdown).toContain('- Budget 50k');
    expect(markdown).toContain(
      '- [ ] **Open a café?** — ready (`r`)\n  - [x] **How big is the market?** — completed (`a`)',
    );
    expect(markdown).toContain('    - Conclusion (analytical):\n      > Big enough.\n      > About 3000 cups.');
    expect(markdown).toContain(
      '  - [!] **Where?** — blocked (`b`)\n    - Depends on: How big is the market?\n    - Context (note): Near the campus',
    );
  });

  it('should say when there is no node yet, and list what the agents wait for', () => {
    const markdown = renderMapMarkdown(
      snapshot({
        pendingQuestions: [
          {
            requestId: 'q1',
            runId: 'run1',
            nodeId: null,
            kind: 'confirm-understanding',
            question: 'Is this right?',
            context: {},
          },
        ],
        runs: [
          { id: 'run1', agent: 'understand-problem', nodeId: null, status: 'WAITING', errorCode: null, error: null },
        ],
      }),
    );
    expect(markdown).toContain('_No nodes yet: the problem is still being understood._');
    expect(markdown).toContain('## Waiting for you\n\n- `q1` (confirm-understanding): Is this right?');
    expect(markdown).toContain('## Agents at work\n\n- understand-problem: waiting (run `run1`)');
  });
});
