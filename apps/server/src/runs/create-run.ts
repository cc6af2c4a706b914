import { AgentGraph, type AgentRun, jsonColumn, type RunLog, type Tx } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import { toRunSnapshot } from '../commands/event-snapshots.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { NodeBusyError } from './agent-errors.ts';
import { type AutoStart, autoStartDecision } from './auto-start.ts';
import { cancelRunIn } from './cancel-run.ts';
import { recordDecision } from './decisions.ts';
import { assertForkable, copyCheckpointIn } from './fork-checkpoint.ts';
import { driveMapOf, type RunEngine } from './run-engine.ts';
import { openDependencies } from './waiting-runs.ts';

/** How a run comes to be, beyond its agent and input. */
export interface RunOrigin {
  /** Why it starts by itself (recorded as a decision of the run). */
  auto?: AutoStart;
  /** The consultation it works for. */
  consultationId?: string;
  /** The run and step it forks from, and the checkpoint that step started from. */
  fork?: { from: AgentRun; step: string; checkpointId: string | null };
}

/**
 * The runs of `agent` paused on an expired gate on the node (or on the map, for a run on no node), which a new run
 * replaces. Refuses a second run on a node that has one running or waiting (read in the same query).
 */
async function pausedRunsToReplace(
  log: RunLog,
  tx: Tx,
  mapId: string,
  nodeId: string | null,
  agent: AgentGraph,
): Promise<AgentRun[]> {
  if (!nodeId) return tx.agentRun.findMany({ where: { mapId, nodeId: null, agent, status: 'PAUSED' } });
  const runs = await log.activeOrPausedRuns(tx, nodeId);
  const busy = runs.find((r) => r.status !== 'PAUSED');
  if (busy) throw new NodeBusyError(nodeId, busy.id);
  const paused = runs.filter((r) => r.agent === agent && r.mapId === mapId).map((r) => r.id);
  return paused.length ? tx.agentRun.findMany({ where: { id: { in: paused } } }) : [];
}

/**
 * Creates a run of `agent` in one command on its map (RUNNING, or WAITING_FOR_DEPENDENCIES on a node whose
 * dependencies are open), replacing the run paused on the same step. The caller starts its drive.
 */
export async function createRun(
  engine: RunEngine,
  ctx: CommandContext,
  mapId: string,
  agent: AgentGraph,
  nodeId: string | null,
  input: Record<string, unknown>,
  origin: RunOrigin = {},
) {
  const { auto, consultationId, fork } = origin;
  const { run, replaced, onMap } = await mutateMap(ctx, mapId, async (tx, emit, map) => {
    if (fork) await assertForkable(tx, fork.from);
    // Redoing a step replaces the run paused on it (an expired gate): one run per node, one understanding per map.
    const paused = await pausedRunsToReplace(ctx.db.runLog, tx, mapId, nodeId, agent);
    const replaced = [];
    for (const old of paused) replaced.push(await cancelRunIn(tx, emit, old, 'replaced by a new run'));
    // A node whose dependencies are open cannot be worked on yet: its run waits for them (see `startWaiting`).
    const waitingFor =
      nodeId && agent === AgentGraph.PROCESS_NODE
        ? openDependencies(await ctx.db.runLog.dependenciesOf(tx, nodeId))
        : [];
    const runId = crypto.randomUUID();
    const run = await tx.agentRun.create({
      data: {
        mapId,
        nodeId,
        agent,
        threadId: runId,
        input: jsonColumn(input),
        consultationId: consultationId ?? null,
        forkedFromRunId: fork?.from.id ?? null,
        forkedFromStep: fork?.step ?? null,
        status: waitingFor.length ? 'WAITING_FOR_DEPENDENCIES' : 'RUNNING',
        ...engine.ownerColumns,
      },
    });
    // A fork's thread starts as a copy of the checkpoint the original's step started from (its state then).
    if (fork) await copyCheckpointIn(tx, fork.from.threadId, fork.checkpointId, run.threadId);
    if (waitingFor.length)
      emit({ type: 'RunWaitingForDependencies', payload: { run: toRunSnapshot(run), waitingFor } });
    else emit({ type: 'RunStarted', payload: { run: toRunSnapshot(run) } });
    if (auto) await recordDecision(ctx.db.runLog, tx, emit, mapId, autoStartDecision(run, auto, map.language));
    return { run, replaced, onMap: driveMapOf(map) };
  });
  for (const old of replaced) engine.abort(old);
  // The map as the run was created on it: its first drive need not read it again.
  return { run, onMap };
}
