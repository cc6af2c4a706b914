import {
  type Checkpoint,
  type CheckpointMetadata,
  compareChannelVersions,
  JsonPlusSerializer,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { CheckpointRow, SerializedValue } from './checkpoint-store-port.ts';

const text = new TextDecoder();
const bytes = new TextEncoder();
/** The channel a StateGraph node is triggered by (LangGraph's `branch:to:<node>`; the start's is its own name). */
const TRIGGER = 'branch:to:';
const START = '__start__';
const nodeTriggeredBy = (channel: string) =>
  channel === START ? START : channel.startsWith(TRIGGER) ? channel.slice(TRIGGER.length) : null;

/** A stored value as the serializer wrote it (see {@link SerializedValue}), read back. */
export async function loadSerialized(serde: SerializerProtocol, value: SerializedValue): Promise<unknown> {
  return serde.loadsTyped(
    value.type,
    value.type === 'bytes' ? new Uint8Array(Buffer.from(value.data, 'base64')) : bytes.encode(value.data),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isVersions = (value: unknown) =>
  isRecord(value) && Object.values(value).every((v) => typeof v === 'number' || typeof v === 'string');
const SOURCES: readonly unknown[] = ['input', 'loop', 'update', 'fork'];

function isCheckpoint(read: unknown): read is Checkpoint {
  return (
    isRecord(read) &&
    typeof read.id === 'string' &&
    isRecord(read.channel_values) &&
    isVersions(read.channel_versions) &&
    isRecord(read.versions_seen) &&
    Object.values(read.versions_seen).every(isVersions)
  );
}

function isMetadata(read: unknown): read is CheckpointMetadata {
  return isRecord(read) && SOURCES.includes(read.source) && typeof read.step === 'number' && isRecord(read.parents);
}

/** A stored checkpoint read back, checked to have the shape LangGraph wrote. */
export async function loadCheckpoint(serde: SerializerProtocol, value: SerializedValue): Promise<Checkpoint> {
  const read = await loadSerialized(serde, value);
  if (isCheckpoint(read)) return read;
  throw new Error('a stored checkpoint is not a LangGraph checkpoint');
}

/** A stored checkpoint's metadata read back, checked to have the shape LangGraph wrote. */
export async function loadMetadata(serde: SerializerProtocol, value: SerializedValue): Promise<CheckpointMetadata> {
  const read = await loadSerialized(serde, value);
  if (isMetadata(read)) return read;
  throw new Error("a stored checkpoint's metadata is not LangGraph's");
}

/** A value written for storage: JSON text, or base64 for `bytes`. */
export async function dumpSerialized(serde: SerializerProtocol, value: unknown): Promise<SerializedValue> {
  const [type, data] = await serde.dumpsTyped(value);
  return { type, data: type === 'bytes' ? Buffer.from(data).toString('base64') : text.decode(data) };
}

/** A stored checkpoint of a graph's run, read back: the steps it is about to run and the state they start from. */
export interface StepCheckpoint {
  checkpointId: string;
  /** LangGraph's super-step counter (`metadata.step`): one more for each step a sequential graph runs. */
  superStep: number;
  /** `input` (a run's start), `loop` (after a step), `update` (a state update: a fork's change). */
  source: string | null;
  /** The steps this checkpoint is about to run (the ones its channels trigger), as LangGraph's `next`. */
  next: string[];
  /** The graph's state at this checkpoint: what those steps read. */
  values: Record<string, unknown>;
}

/**
 * The steps a checkpoint triggers: a node whose trigger channel holds a value of a version it has not seen yet
 * (an emptied trigger channel gets a new version too, so the value must be there).
 */
function nextOf(checkpoint: Checkpoint): string[] {
  const next: string[] = [];
  for (const [channel, version] of Object.entries(checkpoint.channel_versions)) {
    const node = nodeTriggeredBy(channel);
    if (node === null || !(channel in checkpoint.channel_values)) continue;
    const seen = checkpoint.versions_seen[node]?.[channel];
    if (seen === undefined || compareChannelVersions(version, seen) > 0) next.push(node);
  }
  return next;
}

/**
 * Reads stored checkpoint rows (one thread's, any order) back into what each step started from, oldest first.
 * Serialized with LangGraph's own serializer, as {@link PortCheckpointSaver} stores them.
 */
export async function readStepCheckpoints(
  rows: readonly CheckpointRow[],
  serde: SerializerProtocol = new JsonPlusSerializer(),
): Promise<StepCheckpoint[]> {
  const read = await Promise.all(
    rows.map(async (row) => {
      const checkpoint = await loadCheckpoint(serde, row.checkpoint);
      const metadata = await loadMetadata(serde, row.metadata);
      return {
        checkpointId: row.checkpointId,
        superStep: metadata.step ?? -1,
        source: metadata.source ?? null,
        next: nextOf(checkpoint),
        values: checkpoint.channel_values,
      };
    }),
  );
  return read.sort((a, b) => (a.checkpointId < b.checkpointId ? -1 : 1));
}

/**
 * The checkpoint each visit of a sequential graph's run started from, by the visit's position in the run
 * (`visits`: the steps entered, in order, a step resumed after a pause counted once): the i-th ran from the
 * checkpoint of super-step `base + i`, where `base` is 0 for a run started afresh and the super-step of the
 * state update a fork starts from. A visit whose checkpoint is not stored (a run stored before checkpoints were
 * kept per step, a drive still going), or does not run that step, gets null.
 */
export function checkpointsOfVisits(
  checkpoints: readonly StepCheckpoint[],
  visits: readonly string[],
): (StepCheckpoint | null)[] {
  // The last update: a fork of a fork's first step starts from a copy of an update checkpoint, then writes its own.
  const base = checkpoints.findLast((c) => c.source === 'update')?.superStep ?? 0;
  const bySuperStep = new Map(checkpoints.map((c) => [c.superStep, c]));
  return visits.map((step, i) => {
    const checkpoint = bySuperStep.get(base + i);
    return checkpoint?.next.includes(step) ? checkpoint : null;
  });
}
