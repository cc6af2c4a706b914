import type { RunService } from '../agents/run-service.ts';
import type { CommandContext } from '../commands/context.ts';

/**
 * What the MCP tools of one viewer act through: the command layer's context (who acts, the database, the
 * bus) and the agent runs. Tools never write to the database themselves.
 */
export interface McpContext {
  commands: CommandContext;
  runs: RunService;
  /** Where unexpected errors are logged; the client only sees "Unexpected error.". */
  logError: (error: unknown) => void;
}
