import type { Message, RowInserts, Tx } from '@thinkingmap/db';
import { findCycle, isInSubtree } from '@thinkingmap/map-graph';
import { toDecisionSnapshot } from '../commands/decision-snapshot.ts';
import { ValidationError } from '../commands/domain-errors.ts';
import { toContextItemSnapshot, toDependencySnapshot, toMessageSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';
import { newId } from '../commands/new-id.ts';
import type { WrittenBatch } from '../maps/node-batch.ts';
import type { ImportPlan } from './import-plan.ts';

/** The node id a file's key was written as. */
function idOf(written: WrittenBatch, key: string): string {
  return written.nodes.get(key)!.id;
}

/**
 * The imported nodes' dependencies, checked as `addDependency` checks one (no node on its own ancestor or
 * descendant, no cycle: the error names the place and the cycle's questions), written in one statement.
 */
async function writeDependencies(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  mapId: string,
  plan: ImportPlan,
  written: WrittenBatch,
) {
  const tree = [...written.nodes.values()].map(({ id, parentId }) => ({ id, parentId }));
  const questions = new Map([...written.nodes.values()].map((node) => [node.id, node.question]));
  const edges: { nodeId: string; dependsOnId: string }[] = [];
  const seen = new Set<string>();
  for (const node of plan.nodes) {
    node.source.dependsOn.forEach((key, i) => {
      const where = `${node.where}.dependsOn[${i}]`;
      const edge = { nodeId: idOf(written, node.key), dependsOnId: idOf(written, key) };
      if (seen.has(`${edge.nodeId}>${edge.dependsOnId}`))
        throw new ValidationError(where, 'this dependency is given twice');
      if (isInSubtree(tree, edge.nodeId, edge.dependsOnId) || isInSubtree(tree, edge.dependsOnId, edge.nodeId))
        throw new ValidationError(where, 'a node cannot depend on its own ancestor or descendant');
      const cycle = findCycle(edges, edge);
      if (cycle)
        throw new ValidationError(
          where,
          `this dependency closes a cycle: ${cycle.map((id) => questions.get(id)).join(' → ')}`,
        );
      seen.add(`${edge.nodeId}>${edge.dependsOnId}`);
      edges.push(edge);
    });
  }
  const now = new Date();
  const rows = edges.map((edge) => ({ id: newId(), mapId, ...edge, createdAt: now }));
  await inserts.insert(tx, 'Dependency', rows);
  for (const dependency of rows)
    emit({ type: 'DependencyAdded', payload: { dependency: toDependencySnapshot(dependency) } });
}

/** The imported nodes' context items and both conversations' messages, thread links kept within a conversation. */
async function writeContextAndMessages(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  mapId: string,
  plan: ImportPlan,
  written: WrittenBatch,
) {
  const now = new Date();
  const items = plan.nodes.flatMap((node) =>
    node.source.context.map((item) => ({
      id: newId(),
      nodeId: idOf(written, node.key),
      mapId,
      ...item,
      createdAt: now,
    })),
  );
  await inserts.insert(tx, 'ContextItem', items);
  for (const item of items)
    emit({
      type: 'ContextUpdated',
      payload: { nodeId: item.nodeId, action: 'ADDED', item: toContextItemSnapshot(item) },
    });
  const messages: { nodeId: string; row: Message }[] = [];
  for (const node of plan.nodes) {
    const nodeId = idOf(written, node.key);
    for (const [kind, list] of [
      ['DECOMPOSE', node.source.conversations.decompose],
      ['CONCLUDE', node.source.conversations.conclude],
    ] as const) {
      const conversationId = written.conversations.get(node.key)![kind];
      const ids = new Map<string, string>();
      list.forEach((message, i) => {
        const parentId = message.parentId === null ? null : ids.get(message.parentId);
        if (parentId === undefined)
          throw new ValidationError(
            `${node.where}.conversations.${kind.toLowerCase()}[${i}].parentId`,
            'must be an earlier message of the same conversation',
          );
        const id = newId();
        ids.set(message.id, id);
        // Messages of one conversation keep their order: each a millisecond after the one before.
        const createdAt = new Date(now.getTime() + i);
        messages.push({
          nodeId,
          row: {
            id,
            conversationId,
            mapId,
            parentId,
            role: message.role,
            kind: message.kind,
            content: message.content,
            metadata: message.metadata,
            deletedAt: null,
            createdAt,
          },
        });
      });
    }
  }
  await inserts.insert(
    tx,
    'Message',
    messages.map(({ row }) => ({ ...row, metadata: row.metadata === null ? null : JSON.stringify(row.metadata) })),
  );
  for (const { nodeId, row } of messages)
    emit({ type: 'MessagePosted', payload: { nodeId, message: toMessageSnapshot(row) } });
}

/**
 * The runs' decisions about the imported nodes: each run of the file becomes a finished run of its agent that
 * holds its decisions (it has no checkpoint: it cannot be forked or resumed), so the node panel and the run view
 * show why each was decided.
 */
async function writeDecisions(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  mapId: string,
  plan: ImportPlan,
  written: WrittenBatch,
) {
  const now = new Date();
  const runs = new Map<string, { id: string; nodeId: string; agent: string }>();
  const decisions = plan.nodes.flatMap((node) =>
    node.source.decisions.map((decision) => {
      const nodeId = idOf(written, node.key);
      const run = runs.get(decision.runId) ?? { id: newId(), nodeId, agent: decision.agent };
      runs.set(decision.runId, run);
      return { decision, nodeId, runId: run.id };
    }),
  );
  if (!decisions.length) return;
  await inserts.insert(
    tx,
    'AgentRun',
    [...runs.values()].map((run) => ({
      ...run,
      mapId,
      status: 'COMPLETED' as const,
      threadId: `import-${run.id}`,
      createdAt: now,
      updatedAt: now,
      finishedAt: now,
    })),
  );
  const rows = decisions.map(({ decision, nodeId, runId }, i) => ({
    id: newId(),
    runId,
    mapId,
    nodeId,
    kind: decision.kind,
    choice: decision.choice ?? {},
    reason: decision.reason,
    confidence: decision.confidence,
    decidedBy: decision.decidedBy,
    overridden: decision.overridden,
    key: `import-${i}`,
    createdAt: new Date(now.getTime() + i),
  }));
  await inserts.insert(
    tx,
    'Decision',
    rows.map((row) => ({
      ...row,
      choice: JSON.stringify(row.choice),
      overridden: row.overridden === null ? null : JSON.stringify(row.overridden),
    })),
  );
  for (const row of rows) emit({ type: 'DecisionRecorded', payload: { decision: toDecisionSnapshot(row) } });
}

/** The file's consultations with their records (their messages are not part of a map's file). */
async function writeConsultations(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  map: { id: string; ownerId: string },
  plan: ImportPlan,
) {
  const now = new Date();
  const consultations = plan.file.consultations.map((consultation, i) => ({
    consultation: {
      id: newId(),
      mapId: map.id,
      ownerId: map.ownerId,
      plan: [],
      context: {},
      logs: [],
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
    },
    records: consultation.records,
  }));
  if (!consultations.length) return;
  await inserts.insert(
    tx,
    'Consultation',
    consultations.map(({ consultation }) => ({ ...consultation, plan: '[]', context: '{}', logs: '[]' })),
  );
  const records = consultations.flatMap(({ consultation, records }) =>
    records.map((record, i) => ({
      id: newId(),
      consultationId: consultation.id,
      kind: record.kind,
      content: record.content,
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
    })),
  );
  await inserts.insert(tx, 'ConsultationRecord', records);
  for (const { consultation } of consultations)
    emit({
      type: 'ConsultationChanged',
      payload: { consultationId: consultation.id, change: 'STARTED', targetId: null, text: null },
    });
}

/**
 * Writes what comes with an import's nodes, in the import's transaction, a statement per table whatever the
 * size: dependencies, context items, messages, decisions (with their runs), consultations and their records;
 * each with its event. A reference the file gets wrong refuses the whole import, naming the place.
 */
export async function writeImportedContent(
  inserts: RowInserts,
  tx: Tx,
  emit: Emit,
  map: { id: string; ownerId: string },
  plan: ImportPlan,
  written: WrittenBatch,
): Promise<void> {
  await writeDependencies(inserts, tx, emit, map.id, plan, written);
  await writeContextAndMessages(inserts, tx, emit, map.id, plan, written);
  await writeDecisions(inserts, tx, emit, map.id, plan, written);
  await writeConsultations(inserts, tx, emit, map, plan);
}
