import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { migratePostgres, migrateSqlite } from './migrate.ts';
import { type DatabaseTarget, type Provider, parseDatabaseUrl } from './url.ts';
import { createWriteQueue, type WriteQueue } from './write-queue.ts';

/** The Prisma client type used throughout the code. Both providers' clients share this model API. */
export type Db = InstanceType<typeof SqliteClient>;

/** The client handed to a write transaction. */
export type Tx = Prisma.TransactionClient;

/** The methods of a model delegate that only read. */
type ReadMethod =
  | 'findUnique'
  | 'findUniqueOrThrow'
  | 'findFirst'
  | 'findFirstOrThrow'
  | 'findMany'
  | 'count'
  | 'aggregate'
  | 'groupBy';

/** Model names of the client (its delegates), without the `$` methods. */
type ModelName = { [K in keyof Db]: K extends `$${string}` ? never : K extends symbol ? never : K }[keyof Db];

/**
 * The client for reads: every model's find/count/aggregate and nothing that writes, so no code can write
 * around {@link Database.write} (on SQLite, the single-writer queue).
 */
export type ReadDb = { readonly [K in ModelName]: Pick<Db[K], Extract<keyof Db[K], ReadMethod>> };

/** An open database: the Prisma client, its provider, and the single path for writes. */
export interface Database {
  readonly provider: Provider;
  /** Reads outside a transaction. Writes go through {@link Database.write} only. */
  readonly read: ReadDb;
  /**
   * Runs `work` in one transaction. On SQLite, writes are queued and run one at a time (one writer, no
   * SQLITE_BUSY at commit); on PostgreSQL they run concurrently and are retried on serialization failures.
   */
  readonly write: WriteQueue['write'];
  /** Closes the client and its connections. */
  close(): Promise<void>;
}

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** DATABASE_URL; the embedded file database when omitted. */
  url?: string;
  /** Maximum PostgreSQL connections in the pool (default 10). */
  poolSize?: number;
  /** Log migrations that were applied. */
  log?: (message: string) => void;
}

function openSqlite(file: string, log: (message: string) => void): Db {
  const raw = new Sqlite(file);
  try {
    raw.pragma('journal_mode = WAL');
    const applied = migrateSqlite(raw);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  } finally {
    raw.close();
  }
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  return new SqliteClient({ adapter });
}

async function openPostgres(url: string, poolSize: number, log: (message: string) => void): Promise<Db> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await migratePostgres(client);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  } finally {
    await client.end();
  }
  const adapter = new PrismaPg({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // Both generated clients expose the same model API; the SQLite one is the type of record.
  return new PostgresClient({ adapter }) as unknown as Db;
}

/**
 * Opens the database named by `url`, applying any pending migrations first (no network needed).
 * @example const db = await openDatabase({ url: process.env.DATABASE_URL });
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const log = options.log ?? (() => {});
  const target: DatabaseTarget = parseDatabaseUrl(options.url);
  const prisma =
    target.provider === 'sqlite'
      ? openSqlite(target.file, log)
      : await openPostgres(target.url, options.poolSize ?? 10, log);
  const queue = createWriteQueue(prisma, target.provider);
  return {
    provider: target.provider,
    read: prisma,
    write: queue.write,
    async close() {
      await queue.drain();
      await prisma.$disconnect();
    },
  };
}

/**
 * The same database whose writes commit with relaxed durability unless a write asks otherwise (see
 * `WriteDurability`): for an agent run's writes, which the run recovers from its last stored pause.
 */
export function withRelaxedWrites(db: Database): Database {
  return { ...db, write: (work, options) => db.write(work, { durability: 'relaxed', ...options }) };
}
