import type { ModelUsage, RunOutcome } from '@thinkingmap/agent-core';
import type { AgentRun, Database } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import { appendEvents } from '../events/event-log.ts';
import { type MapEvent, type PendingEvent, toWire } from '../events/map-event.ts';

/**
 * Records how a drive of a run ended, in one transaction: the run's status and token usage, the map's
 * spent tokens, the questions it now waits on (AgentQuestion events), or RunFinished / RunFailed. A run
 * the person cancelled meanwhile stays cancelled.
 */
export async function settleRun(
  deps: { db: Database; bus: EventBus; onCommitted?: (events: readonly MapEvent[]) => void },
  run: AgentRun,
  outcome: RunOutcome,
  usage: ModelUsage,
  questionTtlMs: number,
): Promise<void> {
  const stored = await deps.db.write(async (tx) => {
    const current = await tx.agentRun.findUnique({ where: { id: run.id } });
    if (!current) return [];
    const cancelled = current.status === 'CANCELLED';
    const events: PendingEvent[] = [];
    const tokens = {
      promptTokens: { increment: usage.promptTokens },
      completionTokens: { increment: usage.completionTokens },
    };
    const spent = usage.promptTokens + usage.completionTokens;
    if (spent) await tx.map.update({ where: { id: run.mapId }, data: { tokensUsed: { increment: spent } } });
    let status = current.status;
    const data: Record<string, unknown> = { ...tokens };
    if (!cancelled) {
      if (outcome.status === 'WAITING') {
        status = 'WAITING';
        for (const q of outcome.questions) {
          const existing = await tx.agentQuestion.findUnique({
            where: { runId_interruptId: { runId: run.id, interruptId: q.requestId } },
          });
          if (existing) continue;
          const question = await tx.agentQuestion.create({
            data: {
              runId: run.id,
              mapId: run.mapId,
              nodeId: run.nodeId,
              interruptId: q.requestId,
              kind: q.kind,
              question: q.question,
              context: JSON.parse(JSON.stringify(q.context ?? {})),
              expiresAt: new Date(Date.now() + questionTtlMs),
            },
          });
          events.push({ type: 'AgentQuestion', payload: { question: toWire(question) } });
        }
      } else if (outcome.status === 'COMPLETED') {
        status = 'COMPLETED';
        Object.assign(data, { output: JSON.parse(JSON.stringify(outcome.output ?? {})), finishedAt: new Date() });
      } else if (outcome.status === 'FAILED') {
        status = 'FAILED';
        Object.assign(data, {
          error: outcome.reason,
          errorCode: outcome.code,
          raw: outcome.raw ?? null,
          finishedAt: new Date(),
        });
      } else {
        status = 'CANCELLED';
        Object.assign(data, { error: 'the run was cancelled', errorCode: 'CANCELLED', finishedAt: new Date() });
      }
    }
    const updated = await tx.agentRun.update({ where: { id: run.id }, data: { ...data, status } });
    if (!cancelled && outcome.status === 'COMPLETED')
      events.push({ type: 'RunFinished', payload: { run: toWire(updated) } });
    if (!cancelled && (outcome.status === 'FAILED' || outcome.status === 'CANCELLED')) {
      const code = outcome.status === 'FAILED' ? outcome.code : 'CANCELLED';
      events.push({ type: 'RunFailed', payload: { run: toWire(updated), code, reason: updated.error ?? '' } });
    }
    return appendEvents(tx, run.mapId, events);
  });
  if (stored.length) {
    deps.bus.publish(stored);
    deps.onCommitted?.(stored);
  }
}
