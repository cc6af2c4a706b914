import type Sqlite from 'better-sqlite3';
import type { Message } from '../generated/sqlite/client.ts';
import type { ConversationKind } from '../generated/sqlite/enums.ts';
import type { Db } from './database.ts';
import { sqliteRows } from './sqlite-rows.ts';

/**
 * A node's conversation as committed, read outside any write: what an agent reads of it every time it collects
 * a node's context. On a SQLite file the statement is prepared once on the read-only connection (which sees every
 * commit and never waits for the write queue); elsewhere it is a Prisma call.
 */
export interface ConversationLog {
  /** The latest `limit` messages of a node's conversation of `kind` not deleted, latest first (by time, then id). */
  latestMessages(nodeId: string, kind: ConversationKind, limit: number): Promise<Message[]>;
}

/** The conversation log through Prisma (PostgreSQL, in-memory SQLite). */
export function prismaConversationLog(prisma: Db): ConversationLog {
  return {
    latestMessages: (nodeId, kind, limit) =>
      prisma.message.findMany({
        where: { conversation: { nodeId, kind }, deletedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
      }),
  };
}

/** The conversation log on `reader`, a read-only connection to the SQLite file; through `fallback` without one. */
export function sqliteConversationLog(reader: Sqlite.Database | undefined, fallback: ConversationLog): ConversationLog {
  if (!reader) return fallback;
  // Times are ISO text in one format (Prisma's): text order is time order, as Prisma orders them on SQLite.
  const asMessage = sqliteRows(reader)<Message>('Message');
  const latest = reader.prepare<[string, string, number]>(
    'SELECT m.* FROM "Message" m JOIN "Conversation" c ON c."id" = m."conversationId" ' +
      'WHERE c."nodeId" = ? AND c."kind" = ? AND m."deletedAt" IS NULL ORDER BY m."createdAt" DESC, m."id" DESC LIMIT ?',
  );
  return {
    async latestMessages(nodeId, kind, limit) {
      return latest.all(nodeId, kind, limit).map(asMessage);
    },
  };
}
