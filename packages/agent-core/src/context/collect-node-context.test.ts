import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryStore } from '../testing/in-memory-store.ts';
import { BOTH_CONVERSATIONS, collectNodeContext, readNodeContext } from './collect-node-context.ts';
import { CONTEXT_LIMITS } from './context-limits.ts';
import { contextView } from './context-view.ts';
import { formatNodeContext } from './format-node-context.ts';

let store: InMemoryStore;
let ids: Record<string, string>;

beforeEach(async () => {
  store = new InMemoryStore();
  const map = store.addMap({ problem: 'Should we open a second café?', goal: 'decide by June', language: 'en' });
  const root = await store.createNode({
    mapId: map.id,
    parentId: null,
    question: 'Should we open a second café?',
    goal: 'decide',
    constraints: ['budget 50k'],
  });
  const market = await store.createNode({
    mapId: map.id,
    parentId: root.id,
    question: 'How big is the market?',
    goal: 'size it',
  });
  const site = await store.createNode({ mapId: map.id, parentId: root.id, question: 'Which site?', goal: 'pick one' });
  const cousin = await store.createNode({ mapId: map.id, parentId: root.id, question: 'Unrelated sibling', goal: 'x' });
  const footfall = await store.createNode({
    mapId: map.id,
    parentId: site.id,
    question: 'Footfall per site?',
    goal: 'count',
  });
  await store.concludeNode(market.id, { text: 'Big enough: 3,000 customers', kind: 'ANALYTICAL' });
  await store.concludeNode(footfall.id, { text: 'Station site wins', kind: 'ANALYTICAL' });
  await store.addDependency(site.id, market.id);
  store.addContextItem(site.id, 'lease', 'Leases run 5 years');
  ids = { root: root.id, market: market.id, site: site.id, cousin: cousin.id };
});

describe('collectNodeContext', () => {
  it('should collect exactly the parent, dependency siblings, children and context items', async () => {
    const context = await collectNodeContext(store, ids.site!, ['DECOMPOSE']);
    expect(context.parent).toEqual({
      question: 'Should we open a second café?',
      goal: 'decide',
      constraints: ['budget 50k'],
    });
    expect(context.dependencies.map((d) => [d.question, d.conclusion])).toEqual([
      ['How big is the market?', 'Big enough: 3,000 customers'],
    ]);
    expect(context.children.map((c) => [c.question, c.conclusion])).toEqual([
      ['Footfall per site?', 'Station site wins'],
    ]);
    expect(context.contextItems).toEqual([{ title: 'lease', content: 'Leases run 5 years' }]);
    expect(context.node.depth).toBe(1);
    expect(formatNodeContext(context)).not.toContain('Unrelated sibling');
  });

  it('should keep the last 10 messages of the conversation and summarise the rest', async () => {
    for (let i = 1; i <= 14; i += 1)
      await store.postMessage({
        nodeId: ids.site!,
        conversation: 'DECOMPOSE',
        role: 'USER',
        kind: 'TEXT',
        content: `message ${i}`,
      });
    await store.postMessage({
      nodeId: ids.site!,
      conversation: 'CONCLUDE',
      role: 'USER',
      kind: 'TEXT',
      content: 'other tab',
    });
    const context = await collectNodeContext(store, ids.site!, ['DECOMPOSE']);
    const [decompose] = context.conversations;
    expect(context.conversations).toHaveLength(1);
    expect(decompose!.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i + 5}`));
    expect(decompose!.summary).toMatchObject({
      total: 14,
      included: 10,
      byRole: { USER: 14, ASSISTANT: 0, SYSTEM: 0 },
    });
    expect(formatNodeContext(context)).toContain('4 older ones omitted');
  });

  it('should bound a huge context and say what it left out', async () => {
    for (let i = 0; i < 10; i += 1) store.addContextItem(ids.site!, `note ${i}`, 'x'.repeat(5000));
    for (let i = 0; i < 10; i += 1)
      await store.postMessage({
        nodeId: ids.site!,
        conversation: 'DECOMPOSE',
        role: 'USER',
        kind: 'TEXT',
        content: 'y'.repeat(5000),
      });
    const context = await collectNodeContext(store, ids.site!, ['DECOMPOSE']);
    expect(formatNodeContext(context).length).toBeLessThan(CONTEXT_LIMITS.MAX_CONTEXT_CHARS + 3000);
    expect(context.conversations[0]!.messages.length).toBeGreaterThanOrEqual(CONTEXT_LIMITS.MIN_MESSAGES_KEPT);
    expect(context.omissions.join(' ')).toMatch(/dropped to fit/);
    expect(context.node.question).toBe('Which site?');
  });

  it('should render the context in Chinese for a Chinese map', async () => {
    const map = store.addMap({ problem: '要不要开第二家店？', language: 'zh' });
    const root = await store.createNode({
      mapId: map.id,
      parentId: null,
      question: '要不要开第二家店？',
      goal: '六月前决定',
    });
    const text = formatNodeContext(await collectNodeContext(store, root.id, ['CONCLUDE']));
    expect(text).toContain('## 当前问题');
    expect(text).toContain('（对话为空）');
  });
});

describe('contextView', () => {
  const post = (conversation: 'DECOMPOSE' | 'CONCLUDE', content: string, kind: 'TEXT' | 'RAG' = 'TEXT') =>
    store.postMessage({ nodeId: ids.site!, conversation, role: kind === 'RAG' ? 'SYSTEM' : 'USER', kind, content });

  it('should show each agent its own conversation: DECOMPOSE, CONCLUDE or both under their own headings', async () => {
    await post('DECOMPOSE', 'split it by district');
    await post('CONCLUDE', 'the station site is too loud');
    const context = await readNodeContext(store, ids.site!);
    const decompose = formatNodeContext(contextView(context, ['DECOMPOSE']));
    const conclude = formatNodeContext(contextView(context, ['CONCLUDE']));
    const both = formatNodeContext(contextView(context, BOTH_CONVERSATIONS));
    expect(decompose).toContain('split it by district');
    expect(decompose).not.toContain('too loud');
    expect(conclude).toContain('## Conversation about its conclusion');
    expect(conclude).toContain('the station site is too loud');
    expect(conclude).not.toContain('split it by district');
    expect(both.indexOf('## Conversation about splitting this question')).toBeLessThan(
      both.indexOf('## Conversation about its conclusion'),
    );
    expect(both).toContain('split it by district');
    expect(both).toContain('too loud');
  });

  it('should leave out of the conversation the retrieved passages the prompt already carries', async () => {
    await post('CONCLUDE', 'Rent near campus\nShops rent for 80.', 'RAG');
    await post('CONCLUDE', 'Footfall\n2,000 a day.', 'RAG');
    const context = await readNodeContext(store, ids.site!);
    const text = formatNodeContext(
      contextView(context, ['CONCLUDE'], { knownPassages: ['Rent near campus\nShops rent for 80.'] }),
    );
    expect(text).not.toContain('Shops rent for 80.');
    expect(text).toContain('2,000 a day.');
  });

  it('should bound one view by its own messages, dropping the oldest across conversations when both are shown', async () => {
    for (let i = 0; i < 10; i += 1) await post('DECOMPOSE', `d${i} ${'y'.repeat(780)}`);
    for (let i = 0; i < 10; i += 1) await post('CONCLUDE', `c${i} ${'y'.repeat(780)}`);
    for (let i = 0; i < 5; i += 1) store.addContextItem(ids.site!, `note ${i}`, 'x'.repeat(1400));
    const context = await readNodeContext(store, ids.site!);
    const one = contextView(context, ['CONCLUDE']);
    expect(one.conversations[0]!.messages).toHaveLength(10);
    const both = contextView(context, BOTH_CONVERSATIONS);
    const [d, c] = both.conversations;
    expect(d!.messages.length + c!.messages.length).toBeLessThan(20);
    // The oldest messages go first, and they are the decompose conversation's (posted first).
    expect(d!.messages.length).toBeLessThan(c!.messages.length);
    expect(both.omissions.join(' ')).toMatch(/older messages dropped to fit/);
    expect(d!.summary).toMatchObject({ total: 10, included: d!.messages.length });
  });
});
