import type { ApiError } from '../../api/api-error.ts';
import { ShownError } from '../../api/shown-error.svelte.ts';

/**
 * The state of a person's answer to an agent while it is being sent: busy while it travels, the server's
 * refusal when it was refused (a network failure clears itself once the connection is back). Shared by
 * every review and question form.
 */
export class PendingAction {
  busy = $state(false);
  readonly error = new ShownError();

  /** Runs `action` (resolving with a refusal, or null when accepted); true when it was accepted. */
  async run(action: () => Promise<ApiError | string | null>): Promise<boolean> {
    this.busy = true;
    const refusal = await action();
    this.error.set(refusal);
    this.busy = false;
    return refusal === null;
  }
}
