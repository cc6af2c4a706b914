import { ConflictError } from '../commands/domain-errors.ts';

/** A node already has a run in progress (running or waiting for the person). */
export class NodeBusyError extends ConflictError {
  constructor(
    readonly nodeId: string,
    readonly runId: string,
  ) {
    super(`node ${nodeId} is busy with run ${runId}; cancel it or answer its question first`);
  }
}
