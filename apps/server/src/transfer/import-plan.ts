import { AgentGraph, type Language } from '@thinkingmap/db';
import { type ImportedMap, type ImportedNode, outlineNode } from '@thinkingmap/map-markdown/import';
import { z } from 'zod';
import { ValidationError } from '../commands/domain-errors.ts';
import { checkJson, constraints, LIMITS, optionalText, text } from '../commands/input.ts';
import type { BatchNode } from '../maps/node-batch.ts';
import { MAX_BATCH_NODES } from '../maps/node-batch.ts';

/** What one import may bring besides its nodes (each documented in docs/api.md). */
export const IMPORT_LIMITS = {
  nodes: MAX_BATCH_NODES,
  messages: 20_000,
  contextItems: 10_000,
  decisions: 10_000,
  consultations: 100,
  records: 10_000,
  notes: 200,
  noteCharacters: 200_000,
} as const;

/** A node of the plan: the batch's node and what goes with it, checked. */
export interface PlannedNode extends BatchNode {
  source: ImportedNode;
}

/** A checked import: the map's fields and the nodes parents first, ready to write. */
export interface ImportPlan {
  map: { title: string; problem: string; goal: string; constraints: string[]; language: Language | null };
  file: ImportedMap;
  nodes: PlannedNode[];
}

/** Checks one value against a field's rule; the error names the place in the file. */
function check<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(where, result.error.issues[0]!.message);
}

const agent = z.enum(AgentGraph);
const contextTitle = optionalText(LIMITS.contextTitle);
const content = text(LIMITS.content);
const conclusion = optionalText(LIMITS.content).nullable();

/** A running or waiting node has no run behind it once imported: it is ready for one. */
const settled = (status: ImportedNode['status']) => (status === 'RUNNING' || status === 'WAITING' ? 'READY' : status);

/** Counts what the file brings against a limit, refusing at the item that passes it. */
function counter(what: string, limit: number) {
  let count = 0;
  return (by: number, where: string) => {
    count += by;
    if (count > limit)
      throw new ValidationError(where, `an import may hold at most ${limit.toLocaleString('en')} ${what}`);
  };
}

/**
 * Checks a file's map against the limits on what a person writes and what one import holds, and lists its nodes
 * parents first. Several roots of an outline (not of a JSON export, which says what it is) hang under one root
 * named after the map. Throws a {@link ValidationError} whose field is the place in the file.
 */
export function planImport(
  file: ImportedMap,
  wanted: { title?: string | null; language?: Language | null; outline: boolean },
): ImportPlan {
  const named = wanted.title ?? file.title ?? file.tree[0]?.question.slice(0, LIMITS.title) ?? '';
  const title = check(text(LIMITS.title), named, 'title');
  const tree =
    wanted.outline && file.tree.length > 1
      ? [{ ...outlineNode('#root', title, 'document', []), children: file.tree }]
      : file.tree;
  const map = {
    title,
    problem: check(optionalText(LIMITS.problem), file.problem, 'map.problem'),
    goal: check(optionalText(LIMITS.goal), file.goal, 'map.goal'),
    constraints: check(constraints, file.constraints, 'map.constraints'),
    language: wanted.language ?? file.language,
  };
  const nodes = counter('nodes', IMPORT_LIMITS.nodes);
  const messages = counter('messages', IMPORT_LIMITS.messages);
  const items = counter('context items', IMPORT_LIMITS.contextItems);
  const decisions = counter('decisions', IMPORT_LIMITS.decisions);
  const planned: PlannedNode[] = [];
  const stack: { node: ImportedNode; parentKey: string | null }[] = tree
    .map((node) => ({ node, parentKey: null }))
    .reverse();
  while (stack.length) {
    const { node, parentKey } = stack.pop()!;
    const at = node.where;
    nodes(1, at);
    items(node.context.length, at);
    messages(node.conversations.decompose.length + node.conversations.conclude.length, at);
    decisions(node.decisions.length, at);
    node.context.forEach((item, i) => {
      check(contextTitle, item.title, `${at}.context[${i}].title`);
      check(content, item.content, `${at}.context[${i}].content`);
    });
    for (const kind of ['decompose', 'conclude'] as const)
      node.conversations[kind].forEach((message, i) => {
        check(content, message.content, `${at}.conversations.${kind}[${i}].content`);
        checkJson(`${at}.conversations.${kind}[${i}].metadata`, message.metadata);
      });
    node.decisions.forEach((decision, i) => {
      check(agent, decision.agent, `${at}.decisions[${i}].agent`);
      check(optionalText(LIMITS.content), decision.reason, `${at}.decisions[${i}].reason`);
      checkJson(`${at}.decisions[${i}].choice`, decision.choice);
      checkJson(`${at}.decisions[${i}].overridden`, decision.overridden);
    });
    planned.push({
      key: node.key,
      parentKey,
      parentId: null,
      question: check(text(LIMITS.question), node.question, `${at}.question`),
      goal: check(optionalText(LIMITS.goal), node.goal, `${at}.goal`),
      constraints: check(constraints, node.constraints, `${at}.constraints`),
      state: {
        status: settled(node.status),
        statusReason: node.statusReason,
        intent: node.intent,
        strategy: node.strategy,
        conclusion: check(conclusion, node.conclusion, `${at}.conclusion`),
        conclusionKind: node.conclusionKind,
        staleReason: node.staleReason,
        staleSourceQuestion: node.staleSourceQuestion,
        divergentRole: node.divergentRole,
        divergentLevel: node.divergentLevel,
        completionScore: node.completionScore,
      },
      where: at,
      source: node,
    });
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, parentKey: node.key });
  }
  if (file.consultations.length > IMPORT_LIMITS.consultations)
    throw new ValidationError(
      'consultations',
      `an import may hold at most ${IMPORT_LIMITS.consultations} consultations`,
    );
  const records = counter('consultation records', IMPORT_LIMITS.records);
  file.consultations.forEach((consultation, i) => {
    records(consultation.records.length, `consultations[${i}]`);
    consultation.records.forEach((record, j) => {
      check(content, record.content, `consultations[${i}].records[${j}].content`);
    });
  });
  if (file.notes.length > IMPORT_LIMITS.notes)
    throw new ValidationError('notes', `an import may hold at most ${IMPORT_LIMITS.notes} notes`);
  const noteText = z
    .string()
    .max(IMPORT_LIMITS.noteCharacters, `must be at most ${IMPORT_LIMITS.noteCharacters} characters`);
  file.notes.forEach((note, i) => {
    check(noteText, note.content, `notes[${i}].content`);
  });

  return { map, file, nodes: planned };
}
