import type { ApiResult } from '../api/request.ts';
import { ShownError } from '../api/shown-error.svelte.ts';

/** A version conflict as the panel shows it: your text is kept, the current text is shown beside it. */
export interface DraftConflict {
  expectedVersion: number;
  currentVersion: number;
}

/** Saves `text` as an edit based on `baseVersion`. */
export type SaveDraft = (text: string, baseVersion: number) => Promise<ApiResult<unknown>>;

/**
 * One field edited in place (question, goal, constraints, conclusion). Editing remembers the version it
 * started from; a save that the server refuses as stale keeps the typed text and records the conflict,
 * so the person can compare with the current text and choose to overwrite or discard.
 */
export class FieldDraft {
  editing = $state(false);
  text = $state('');
  baseVersion = $state(0);
  saving = $state(false);
  conflict = $state<DraftConflict | null>(null);
  /** Why the last save was refused (a network failure clears itself once the connection is back). */
  readonly problem = new ShownError();

  constructor(private readonly save: SaveDraft) {}

  /** Starts editing from the current value and version. */
  begin(value: string, version: number): void {
    this.editing = true;
    this.text = value;
    this.baseVersion = version;
    this.conflict = null;
    this.problem.set(null);
  }

  /** The refusal's message, or null. */
  get error(): string | null {
    const current = this.problem.current;
    return current === null ? null : typeof current === 'string' ? current : current.message;
  }

  /** Saves; returns whether the edit was accepted. */
  async commit(): Promise<boolean> {
    this.saving = true;
    this.problem.set(null);
    try {
      const result = await this.save(this.text, this.baseVersion);
      if (result.ok) {
        this.editing = false;
        this.conflict = null;
        return true;
      }
      if (result.error.__typename === 'VersionConflictError') {
        const { expectedVersion, currentVersion } = result.error;
        this.conflict = { expectedVersion, currentVersion };
      } else {
        this.problem.set(result.error);
      }
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** After a conflict: saves the kept text over the current version. */
  async overwrite(currentVersion: number): Promise<boolean> {
    this.baseVersion = currentVersion;
    this.conflict = null;
    return this.commit();
  }

  /** Stops editing and forgets the typed text. */
  cancel(): void {
    this.editing = false;
    this.conflict = null;
    this.problem.set(null);
  }
}
