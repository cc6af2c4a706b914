/**
 * The state of a person's answer to an agent while it is being sent: busy while it travels, the server's
 * error message when it was refused. Shared by every review and question form.
 */
export class PendingAction {
  busy = $state(false);
  error = $state<string | null>(null);

  /** Runs `action` (resolving with an error message, or null when accepted); true when it was accepted. */
  async run(action: () => Promise<string | null>): Promise<boolean> {
    this.busy = true;
    this.error = await action();
    this.busy = false;
    return this.error === null;
  }
}
