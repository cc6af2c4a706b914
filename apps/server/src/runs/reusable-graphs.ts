import {
  type AgentDeps,
  type CheckpointStorePort,
  createProcessNodeGraph,
  type KnowledgePort,
  PortCheckpointSaver,
} from '@thinkingmap/agent-core';

/** What a drive brings to the graph it borrows: its own ports, and the checkpoints of its drive. */
export interface DriveParts {
  model: AgentDeps['model'];
  store: AgentDeps['store'];
  events: AgentDeps['events'];
  checkpoints: CheckpointStorePort;
}

/** An object that forwards every property to what `target()` returns at the time (methods bound to it). */
function forwardTo<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const current = target();
      const value: unknown = Reflect.get(current, key, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** A compiled process-node graph whose ports and checkpointer are those of the drive it is lent to. */
export class LentGraph {
  #drive: DriveParts | undefined;
  readonly graph: ReturnType<typeof createProcessNodeGraph>;

  constructor(limits: { knowledge?: KnowledgePort; maxQuestions?: number }) {
    const drive = (): DriveParts => {
      if (!this.#drive) throw new Error('a reusable graph ran outside the drive it was lent to');
      return this.#drive;
    };
    this.graph = createProcessNodeGraph(
      {
        model: forwardTo(() => drive().model),
        store: forwardTo(() => drive().store),
        events: forwardTo(() => drive().events),
        ...limits,
      },
      { checkpointer: new PortCheckpointSaver(forwardTo(() => drive().checkpoints)) },
    );
  }

  lend(drive: DriveParts): void {
    this.#drive = drive;
  }

  /** Ends the loan: anything the graph still asks of its drive from now on fails. */
  giveBack(): void {
    this.#drive = undefined;
  }
}

/**
 * Compiled process-node graphs kept for the drives to borrow: compiling one costs about as much as one of its steps,
 * and every drive of every run needs one. A graph is lent to one drive at a time; it is taken back only after a drive
 * that ended by itself (paused, completed or failed), when none of its steps can still be running. After an abort a
 * step may still be finishing (a model call the signal did not stop): that graph is dropped, so no late call of one
 * run can reach another's ports.
 */
export class ReusableGraphs {
  readonly #idle: LentGraph[] = [];

  constructor(private readonly limits: { knowledge?: KnowledgePort; maxQuestions?: number }) {}

  /** A compiled graph running on `drive`'s ports, until it is given back. */
  lend(drive: DriveParts): LentGraph {
    const lent = this.#idle.pop() ?? new LentGraph(this.limits);
    lent.lend(drive);
    return lent;
  }

  /** Takes a graph back after its drive: kept for the next drive when the drive ended by itself. */
  giveBack(lent: LentGraph, endedByItself: boolean): void {
    lent.giveBack();
    if (endedByItself) this.#idle.push(lent);
  }
}
