import { z } from 'zod';

/** The server's configuration, read once from the environment. Every variable is optional. */
export const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().optional(),
    REDIS_URL: z.string().optional(),
    /** Minutes a question waits for the person before its run goes on with what it has. */
    TM_QUESTION_TTL_MINUTES: z.coerce.number().positive().default(30),
    /** Questions one run may ask the person. */
    TM_MAX_QUESTIONS: z.coerce.number().int().min(0).max(20).default(3),
    TM_REQUIRE_TOKEN: z
      .enum(['0', '1', 'true', 'false'])
      .default('0')
      .transform((value) => value === '1' || value === 'true'),
    /** The token the stdio MCP command acts with (the local user when unset). */
    TM_TOKEN: z.string().optional(),
    /** MCP servers file for knowledge retrieval; else a repo-root mcp-servers.json, else the built-in server. */
    TM_MCP_CONFIG: z.string().optional(),
  })
  .parse(process.env);
