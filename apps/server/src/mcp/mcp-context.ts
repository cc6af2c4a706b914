import type { CommandContext } from '../commands/context.ts';
import type { ConsultationService } from '../consultations/consultation-service.ts';
import type { FileNotes } from '../consultations/file-notes.ts';
import type { RunEngine } from '../runs/run-engine.ts';

/**
 * What the MCP tools of one viewer act through: the command layer's context (who acts, the database, the
 * bus) and the agent runs. Tools never write to the database themselves.
 */
export interface McpContext {
  commands: CommandContext;
  /** What drives agent runs: the run commands of runs/ take it. */
  runs: RunEngine;
  /** Consultations (the same service as the GraphQL API) and the notes folder. */
  consultations: ConsultationService;
  notes: FileNotes;
  /** Where unexpected errors are logged; the client only sees "Unexpected error.". */
  logError: (error: unknown) => void;
}
