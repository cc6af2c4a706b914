import type { ConversationKind } from '../domain/enums.ts';
import type { NodeRecord } from '../domain/records.ts';
import type { NodeNeighbourhood, StorePort } from '../ports/store-port.ts';
import { boundContext } from './bound-context.ts';
import { clip, CONTEXT_LIMITS as L } from './context-limits.ts';
import type { NodeContext, RelatedNode } from './node-context.ts';

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

/**
 * Assembles a node's {@link NodeContext} from the store in two reads (the neighbourhood and one
 * conversation's tail), bounded by the rules of `CONTEXT_LIMITS`. Plain code, no model.
 */
export async function collectNodeContext(
  store: StorePort,
  nodeId: string,
  conversation: ConversationKind,
): Promise<NodeContext> {
  const [hood, tail] = await Promise.all([
    store.readNode(nodeId),
    store.readConversation(nodeId, conversation, L.RECENT_MESSAGES),
  ]);
  return buildNodeContext(hood, tail, conversation);
}

/** The pure part of {@link collectNodeContext}, for callers that already hold the data. */
export function buildNodeContext(
  hood: NodeNeighbourhood,
  tail: Awaited<ReturnType<StorePort['readConversation']>>,
  conversation: ConversationKind,
): NodeContext {
  const omissions: string[] = [];
  const { map, node, parent } = hood;
  if (hood.dependencies.length > L.MAX_DEPENDENCIES)
    omissions.push(`${hood.dependencies.length - L.MAX_DEPENDENCIES} dependencies left out`);
  if (hood.children.length > L.MAX_CHILDREN)
    omissions.push(`${hood.children.length - L.MAX_CHILDREN} children left out`);
  if (hood.contextItems.length > L.MAX_CONTEXT_ITEMS)
    omissions.push(`${hood.contextItems.length - L.MAX_CONTEXT_ITEMS} older context items left out`);
  const messages = tail.messages.slice(-L.RECENT_MESSAGES).map((m) => {
    const content = clip(m.content, L.MESSAGE_CHARS);
    if (content.clipped) omissions.push('a long message shortened');
    return { id: m.id, role: m.role, kind: m.kind, content: content.text, createdAt: m.createdAt };
  });
  const context: NodeContext = {
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
    messages,
    conversation: {
      kind: conversation,
      total: tail.total,
      included: messages.length,
      firstAt: tail.firstAt,
      lastAt: tail.lastAt,
    },
    contextItems: hood.contextItems.slice(-L.MAX_CONTEXT_ITEMS).map((item) => {
      const content = clip(item.content, L.CONTEXT_ITEM_CHARS);
      if (content.clipped) omissions.push(`context item “${item.title}” shortened`);
      return { title: item.title, content: content.text };
    }),
    omissions,
  };
  return boundContext(context);
}
