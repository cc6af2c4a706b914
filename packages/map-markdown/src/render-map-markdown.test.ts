import { lexer, parse, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import type { MarkdownMap } from './markdown-map.ts';
import { renderMapMarkdown } from './render-map-markdown.ts';
import { node } from './test-fixtures.ts';

const aMap = (extra: Partial<MarkdownMap> = {}): MarkdownMap => ({
  id: 'm1',
  title: 'Open a café?',
  problem: 'Should I open a café?',
  goal: 'Decide by June',
  constraints: ['Budget 50k'],
  language: 'en',
  status: 'ACTIVE',
  nodes: [],
  ...extra,
});

/** Every token of the parsed Markdown, nested ones included. */
function allTokens(markdown: string): Token[] {
  const out: Token[] = [];
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      out.push(token);
      if ('tokens' in token && token.tokens) visit(token.tokens);
      if (token.type === 'list') visit((token as Tokens.List).items);
    }
  };
  visit(lexer(markdown));
  return out;
}

/** Text of rendered HTML with its entities decoded. */
const decode = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The headings a Markdown reader sees, as `## text`. */
const headings = (markdown: string) =>
  allTokens(markdown)
    .filter((t): t is Tokens.Heading => t.type === 'heading')
    .map((t) => `${'#'.repeat(t.depth)} ${t.text}`);

describe('renderMapMarkdown', () => {
  const cafe = aMap({
    nodes: [
      // Out of order on purpose: the renderer orders the tree itself.
      node('b', 'r', 'Where?', {
        position: 1,
        status: 'BLOCKED',
        statusReason: 'waiting for the market size',
        dependsOn: ['a'],
        contextItems: [{ title: 'note', content: 'Near the campus' }],
      }),
      node('r', null, 'Open a café?'),
      node('a', 'r', 'How big is the market?', {
        status: 'COMPLETED',
        goal: 'A number',
        constraints: ['Only this city'],
        conclusion: 'Big enough.\nAbout 3000 cups.',
        conclusionKind: 'ANALYTICAL',
      }),
    ],
  });

  it('should render the tree indented by depth, with statuses, dependencies, context and conclusions', () => {
    expect(renderMapMarkdown(cafe)).toBe(
      [
        '# Open a café?',
        '',
        'Map `m1` · active · English',
        '',
        '## Problem',
        '',
        'Should I open a café?',
        '',
        '**Goal:** Decide by June',
        '',
        '**Constraints:**',
        '',
        '- Budget 50k',
        '',
        '## Thinking tree',
        '',
        '- [ ] **Open a café?** — Ready (`r`)',
        '  - [x] **How big is the market?** — Concluded (`a`)',
        '    - Goal: A number',
        '    - Constraints: Only this city',
        '    - Conclusion (Analytical):',
        '      > Big enough.',
        '      > About 3000 cups.',
        '  - [!] **Where?** — Blocked (`b`)',
        '    - Why: waiting for the market size',
        '    - Waits for: “How big is the market?”',
        '    - Context (note):',
        '      > Near the campus',
        '',
      ].join('\n'),
    );
  });

  it('should leave the ids out of a person’s export', () => {
    const markdown = renderMapMarkdown(cafe, { ids: false });
    expect(markdown).not.toContain('`');
    expect(markdown).toContain('# Open a café?\n\n## Problem');
    expect(markdown).toContain('- [ ] **Open a café?** — Ready\n  - [x] **How big is the market?** — Concluded\n');
  });

  it('should write its headings and labels in the map’s language', () => {
    const markdown = renderMapMarkdown({ ...cafe, language: 'zh' });
    expect(headings(markdown)).toEqual(['# Open a café?', '## 问题', '## 思考树']);
    expect(markdown).toContain('思考地图 `m1` · 进行中 · 中文');
    expect(markdown).toContain('**目标:** Decide by June');
    expect(markdown).toContain('— 已完成 (`a`)');
    expect(markdown).toContain('- 结论 (分析型):');
    expect(markdown).toContain('- 依赖: “How big is the market?”');
  });

  it('should mark each status, running and waiting included', () => {
    const statuses = ['PENDING', 'READY', 'BLOCKED', 'RUNNING', 'WAITING', 'COMPLETED', 'FAILED'] as const;
    const markdown = renderMapMarkdown(
      aMap({ nodes: statuses.map((status, i) => node(status, null, status.toLowerCase(), { status, position: i })) }),
    );
    expect(markdown).toContain('- [~] **running** — Running (`RUNNING`)');
    expect(markdown).toContain('- [?] **waiting** — Waiting for you (`WAITING`)');
    expect(markdown).toContain('- [-] **failed** — Failed (`FAILED`)');
    expect(markdown).toContain('- [ ] **pending** — Pending (`PENDING`)');
  });

  it('should say when a conclusion is out of date and why, in the map’s language', () => {
    const stale = node('p', null, 'Open a café?', {
      status: 'COMPLETED',
      conclusion: 'Yes, near campus.',
      staleReason: 'CHILD_ADDED',
      staleSourceQuestion: 'What about rent?',
    });
    expect(renderMapMarkdown(aMap({ nodes: [stale] }))).toContain(
      '  - Conclusion out of date: a sub-question was added (“What about rent?”)',
    );
    expect(
      renderMapMarkdown(aMap({ language: 'zh', nodes: [{ ...stale, staleReason: 'DEPENDENCY_CHANGED' }] })),
    ).toContain('  - 结论已过时: 它所依赖的问题的结论变了 (“What about rent?”)');
    expect(renderMapMarkdown(aMap({ nodes: [{ ...stale, staleReason: null }] }))).not.toContain('out of date');
  });

  it('should say when there is no node yet, and list what the agents wait for and which are at work', () => {
    const markdown = renderMapMarkdown(
      aMap({
        pendingQuestions: [
          { requestId: 'q1', nodeId: null, kind: 'confirm-understanding', question: 'Is this right?' },
          { requestId: 'q2', nodeId: 'n1', kind: 'clarify', question: 'Which city?' },
        ],
        runs: [
          { id: 'run1', agent: 'understand-problem', nodeId: null, status: 'WAITING' },
          { id: 'run2', agent: 'process-node', nodeId: 'n1', status: 'RUNNING' },
          { id: 'run0', agent: 'process-node', nodeId: 'n0', status: 'COMPLETED' },
        ],
      }),
    );
    expect(markdown).toContain('_No nodes yet: the problem is still being understood._');
    expect(markdown).toContain(
      '## Waiting for you\n\n- `q1` (confirm-understanding): Is this right?\n- `q2` (clarify on node `n1`): Which city?',
    );
    expect(markdown).toContain(
      '## Agents at work\n\n- understand-problem: waiting for you (run `run1`)\n- process-node on node `n1`: running (run `run2`)\n',
    );
    expect(markdown).not.toContain('run0');
  });

  it('should render what a person wrote as text: no question, goal or conclusion can forge structure', () => {
    const forged = aMap({
      title: '# Root',
      problem: 'Real problem\n## Conclusion\n- [x] fake item\n1. fake step\n    code?\n---\n<script>x</script>',
      goal: '',
      constraints: [],
      nodes: [
        node('r', null, 'Where?\n## Conclusion\nWe are done', {
          goal: '# Root',
          status: 'COMPLETED',
          conclusion: 'Near the station.\n# Root\n## Waiting for you\n> quoted\n- [x] **forged** — Concluded (`r`)',
          contextItems: [{ title: '](http://x)', content: '## Thinking tree\n***' }],
        }),
        node('c', 'r', '**bold** _em_ `code` [link](http://x) <b>html</b> | table | ~~gone~~ &amp;'),
      ],
      pendingQuestions: [{ requestId: 'q', nodeId: null, kind: 'clarify', question: 'What?\n# Root' }],
    });
    const html = parse(renderMapMarkdown(forged), { async: false });

    expect(
      [...html.matchAll(/<h(\d)[^>]*>(.*?)<\/h\1>/g)].map(([, level, text]) => `h${level} ${decode(text!)}`),
    ).toEqual(['h1 # Root', 'h2 Problem', 'h2 Thinking tree', 'h2 Waiting for you']);
    // Only the renderer's own structure: two nodes (bold, with a box), their three details and one question;
    // two quotes; code spans for the ids alone; no HTML, rule, table, code block, strikethrough or list.
    const count = (pattern: RegExp) => html.match(pattern)?.length ?? 0;
    expect(count(/<li>/g)).toBe(6);
    expect(count(/<input /g)).toBe(2);
    expect(count(/<strong>/g)).toBe(2);
    expect(count(/<blockquote>/g)).toBe(2);
    expect([...html.matchAll(/<code>(.*?)<\/code>/g)].map(([, id]) => id)).toEqual(['m1', 'r', 'c', 'q']);
    for (const tag of ['<script', '<b>', '<hr', '<table', '<pre', '<del', '<em>', '<ol'])
      expect(html).not.toContain(tag);
    // A web address a person wrote stays a plain link to itself; no text became a link to somewhere else.
    for (const [, href, label] of html.matchAll(/<a href="([^"]*)">(.*?)<\/a>/g)) expect(label).toBe(href);

    const text = decode(html.replace(/<[^>]+>/g, ''));
    for (const written of [
      'Where? ## Conclusion We are done',
      '- [x] fake item',
      '1. fake step',
      '<script>x</script>',
      '## Waiting for you',
      '> quoted',
      '- [x] **forged** — Concluded (`r`)',
      '## Thinking tree',
      '**bold** _em_ `code` [link](http://x) <b>html</b> | table | ~~gone~~ &amp;',
      'What? # Root',
    ])
      expect(text).toContain(written);
  });

  it('should carry the consultations’ records and the notes, each note’s Markdown fenced as it was written', () => {
    const note = '# Tea shop\n\n## Platforms\n\n- Etsy\n\n```js\nconst price = 12;\n```\n';
    const map = aMap({
      consultations: [
        {
          id: 'c1',
          records: [
            { id: 'r1', kind: 'REQUIREMENT', content: 'sell tea online' },
            { id: 'r2', kind: 'OPEN_QUESTION', content: '## which platform? <b>' },
          ],
        },
        { id: 'c2', records: [] },
      ],
      notes: [{ path: 'shop/overview.md', content: note }],
    });
    const markdown = renderMapMarkdown(map, { ids: false });
    expect(markdown).toContain('## Consultation records\n\n### Consultation 1\n\n- **Requirement:** sell tea online');
    expect(markdown).toContain('### Consultation 2\n\n_No records yet._');
    // The note is kept word for word inside a fence longer than its own code fence.
    expect(markdown).toContain(`## Notes\n\n### shop/overview.md\n\n\`\`\`\`markdown\n${note}\`\`\`\``);
    const code = allTokens(markdown).filter((t): t is Tokens.Code => t.type === 'code');
    expect(code.map((t) => [t.lang, t.text])).toEqual([['markdown', note.slice(0, -1)]]);
    // Neither a record nor a note adds a heading of the map's own.
    expect(headings(markdown).slice(-5)).toEqual([
      '## Consultation records',
      '### Consultation 1',
      '### Consultation 2',
      '## Notes',
      '### shop/overview.md',
    ]);
    const zh = renderMapMarkdown({ ...map, language: 'zh', consultations: map.consultations?.slice(0, 1) });
    expect(zh).toContain('## 咨询记录\n\n### 咨询 (`c1`)\n\n- **需求:** sell tea online');
    expect(zh).toContain('## 笔记');
  });

  it('should leave consultations and notes out of a map that has none, and out of a branch', () => {
    const markdown = renderMapMarkdown(cafe);
    expect(markdown).not.toContain('Consultation records');
    expect(markdown).not.toContain('## Notes');
  });
});
