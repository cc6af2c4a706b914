import type { ConversationKind } from '../domain/enums.ts';
import type { NodeRecord } from '../domain/records.ts';
import type { ConversationTail, NodeNeighbourhood, StorePort } from '../ports/store-port.ts';
import { boundContext } from './bound-context.ts';
import { clip, CONTEXT_LIMITS as L } from './context-limits.ts';
import type { ConversationContext, NodeContext, RelatedNode } from './node-context.ts';

/** Both of a node's conversations, in the order contexts show them. */
export const BOTH_CONVERSATIONS: readonly ConversationKind[] = ['DECOMPOSE', 'CONCLUDE'];

function related(node: NodeRecord, cuts: string[]): RelatedNode {
  const question = clip(node.question, L.QUESTION_CHARS);
  const goal = clip(node.goal, L.GOAL_CHARS);
  const conclusion = node.conclusion === null ? null : clip(node.conclusion, L.CONCLUSION_CHARS);
  if (question.clipped || goal.clipped || conclusion?.clipped) cuts.push(`shortened “${question.text.slice(0, 30)}”`);
  return {
    id: node.id,
    question: question.text,
    goal: goal.text,
    conclusion: conclusion?.text ?? null,
    status: node.status,
  };
}

const constraints = (list: string[]) => list.map((c) => clip(c, L.CONSTRAINT_CHARS).text);
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function conversationOf(kind: ConversationKind, tail: ConversationTail, cuts: string[]): ConversationContext {
  const messages = tail.messages.slice(-L.RECENT_MESSAGES).map((m) => {
    const content = clip(m.content, L.MESSAGE_CHARS);
    if (content.clipped) cuts.push('a long message shortened');
    return { id: m.id, role: m.role, kind: m.kind, content: content.text, createdAt: m.createdAt.toISOString() };
  });
  return {
    summary: {
      kind,
      total: tail.total,
      included: messages.length,
      byRole: tail.byRole,
      firstAt: iso(tail.firstAt),
      lastAt: iso(tail.lastAt),
    },
    messages,
  };
}

/** What a node's context is built from: its neighbourhood and the tail of each conversation asked for. */
export interface ContextSources {
  hood: NodeNeighbourhood;
  tails: (readonly [ConversationKind, ConversationTail])[];
}

/** Reads a node's neighbourhood and the tail of each of the `conversations`, at once. */
export async function readContextSources(
  store: StorePort,
  nodeId: string,
  conversations: readonly ConversationKind[] = BOTH_CONVERSATIONS,
): Promise<ContextSources> {
  const [hood, ...tails] = await Promise.all([
    store.readNode(nodeId),
    ...conversations.map((kind) => store.readConversation(nodeId, kind, L.RECENT_MESSAGES)),
  ]);
  return { hood, tails: conversations.map((kind, i) => [kind, tails[i]!] as const) };
}

/**
 * A node's {@link NodeContext} with the `conversations` asked for (both by default), capped field by field
 * and list by list but not yet as a whole: each agent's view of it is bounded by `contextView`. Plain code.
 */
export async function readNodeContext(
  store: StorePort,
  nodeId: string,
  conversations: readonly ConversationKind[] = BOTH_CONVERSATIONS,
): Promise<NodeContext> {
  const { hood, tails } = await readContextSources(store, nodeId, conversations);
  return buildNodeContext(hood, tails);
}

/**
 * A node's {@link NodeContext} with the `conversations` asked for, bounded by every rule of `CONTEXT_LIMITS`
 * (what one agent sees).
 */
export async function collectNodeContext(
  store: StorePort,
  nodeId: string,
  conversations: readonly ConversationKind[] = BOTH_CONVERSATIONS,
): Promise<NodeContext> {
  return boundContext(await readNodeContext(store, nodeId, conversations));
}

/** The pure part of {@link readNodeContext} (capped, not bounded as a whole), for callers that hold the data. */
export function buildNodeContext(
  hood: NodeNeighbourhood,
  tails: readonly (readonly [ConversationKind, ConversationTail])[],
): NodeContext {
  const omissions: string[] = [];
  const { map, node, parent } = hood;
  if (hood.dependencies.length > L.MAX_DEPENDENCIES)
    omissions.push(`${hood.dependencies.length - L.MAX_DEPENDENCIES} dependencies left out`);
  if (hood.children.length > L.MAX_CHILDREN)
    omissions.push(`${hood.children.length - L.MAX_CHILDREN} children left out`);
  if (hood.contextItems.length > L.MAX_CONTEXT_ITEMS)
    omissions.push(`${hood.contextItems.length - L.MAX_CONTEXT_ITEMS} older context items left out`);
  return {
    language: map.language,
    map: {
      id: map.id,
      problem: clip(map.problem, L.CONTEXT_ITEM_CHARS).text,
      goal: clip(map.goal, L.GOAL_CHARS).text,
      constraints: constraints(map.constraints),
    },
    node: {
      id: node.id,
      question: clip(node.question, L.QUESTION_CHARS).text,
      goal: clip(node.goal, L.GOAL_CHARS).text,
      constraints: constraints(node.constraints),
      depth: hood.depth,
    },
    parent: parent
      ? {
          question: clip(parent.question, L.QUESTION_CHARS).text,
          goal: clip(parent.goal, L.GOAL_CHARS).text,
          constraints: constraints(parent.constraints),
        }
      : null,
    dependencies: hood.dependencies.slice(0, L.MAX_DEPENDENCIES).map((d) => related(d, omissions)),
    children: hood.children.slice(0, L.MAX_CHILDREN).map((c) => related(c, omissions)),
    conversations: tails.map(([kind, tail]) => conversationOf(kind, tail, omissions)),
    contextItems: hood.contextItems.slice(-L.MAX_CONTEXT_ITEMS).map((item) => {
      const content = clip(item.content, L.CONTEXT_ITEM_CHARS);
      if (content.clipped) omissions.push(`context item “${item.title}” shortened`);
      return { title: item.title, content: content.text };
    }),
    omissions,
  };
}
