import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { type AgentReads, createAgentReads } from './agent-reads.ts';
import { type CheckpointLog, createCheckpointLog } from './checkpoint-log.ts';
import { statementsFor } from './kysely.ts';
import { createMapLog, type MapLog } from './map-log.ts';
import type { MapVersion } from './map-version.ts';
import { migratePostgres, migrateSqlite } from './migrate.ts';
import { createRowInserts, type RowInserts } from './row-inserts.ts';
import { type RunLog, runLog } from './run-log.ts';
import { type DatabaseTarget, type Provider, parseDatabaseUrl } from './url.ts';
import { walFlush } from './wal-flush.ts';
import { createWriteQueue, type SqliteWriteOptions, type WriteQueue } from './write-queue.ts';

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
  /**
   * The row facts a stored answer of a map read depends on (see {@link MapVersion}), in one query; null when the map
   * does not exist. Sees every committed write, like {@link Database.read}.
   */
  readonly mapVersion: (mapId: string) => Promise<MapVersion | null>;
  /** The statements of every command's transaction: the map's row and lock, its events, its receipts. */
  readonly mapLog: MapLog;
  /** The statements that store and drop agent runs' checkpoints, inside a write transaction. */
  readonly checkpointLog: CheckpointLog;
  /** Multi-row inserts of many rows of one table, inside a write transaction (a batch of nodes, an import). */
  readonly rows: RowInserts;
  /** The columns an agent run's writes look up (its state on a node, its decisions, its status). */
  readonly runLog: RunLog;
  /** What agent runs read of the committed database, outside any write: the one interface agents read through. */
  readonly agentReads: AgentReads;
  /** Closes the client and its connections. */
  close(): Promise<void>;
}

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** DATABASE_URL; the embedded file database when omitted. */
  url?: string;
  /** Maximum PostgreSQL connections in the pool (default 10). */
  poolSize?: number;
  /** Log migrations that were applied and connections the database closed. */
  log?: (message: string) => void;
}

interface Opened {
  prisma: Db;
  /**
   * The client `Database.read` goes through when it is not `prisma`: on a SQLite file, a read-only connection of its
   * own, which sees only committed writes. (Prisma's SQLite adapter runs a query issued outside a transaction on the
   * transaction's connection while one is open: a read beside a write saw what the write had not committed yet, and
   * kept it when the write rolled back.)
   */
  reads?: Db;
  /** The SQLite write path's connection and flush (see `createWriteQueue`). */
  sqlite?: SqliteWriteOptions;
  /** PostgreSQL's pool, which Prisma's adapter borrows: ended after Prisma lets it go. */
  pool?: pg.Pool;
}

async function openSqlite(file: string, log: (message: string) => void): Promise<Opened> {
  const raw = new Sqlite(file);
  try {
    raw.pragma('journal_mode = WAL');
    const applied = migrateSqlite(raw);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  } finally {
    raw.close();
  }
  const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 10_000 }) });
  // A read-only connection of its own to the same file (not for an in-memory database, which no second connection
  // sees). In WAL mode a reader sees every commit and only commits, and never waits for the writer.
  const memory = file === ':memory:';
  const reads = memory
    ? undefined
    : new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 10_000 }) });
  // The adapter holds one connection: refused writes on it, so nothing can write around the write queue.
  await reads?.$executeRawUnsafe('PRAGMA query_only = ON');
  return {
    prisma,
    ...(reads && { reads }),
    sqlite: memory ? {} : { flush: walFlush(file) },
  };
}

async function openPostgres(url: string, poolSize: number, log: (message: string) => void): Promise<Opened> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await migratePostgres(client);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  } finally {
    await client.end();
  }
  // One pool for Prisma; ended after Prisma lets it go.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // An idle connection that PostgreSQL ends (a restart, a failover, an administrator) is dropped by the pool, which
  // opens another when needed; without a listener its 'error' event would end the process.
  pool.on('error', (error) => {
    if (!pool.ending) log(`a PostgreSQL connection was closed (${error.message}); the pool opens another when needed`);
  });
  const adapter = new PrismaPg(pool);
  // Both generated clients expose the same model API; the SQLite one is the type of record.
  const prisma = new PostgresClient({ adapter }) as unknown as Db;
  return {
    prisma,
    pool,
  };
}

/**
 * Opens the database named by `url`, applying any pending migrations first (no network needed).
 * @example const db = await openDatabase({ url: process.env.DATABASE_URL });
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const log = options.log ?? (() => {});
  const target: DatabaseTarget = parseDatabaseUrl(options.url);
  const { prisma, reads, sqlite, pool } =
    target.provider === 'sqlite'
      ? await openSqlite(target.file, log)
      : await openPostgres(target.url, options.poolSize ?? 10, log);
  const queue = createWriteQueue(prisma, target.provider, sqlite);
  const read: ReadDb = reads ?? prisma;
  const agentReads = createAgentReads(read);
  const statements = statementsFor(target.provider);
  return {
    provider: target.provider,
    read,
    write: queue.write,
    mapVersion: agentReads.mapVersion,
    mapLog: createMapLog(target.provider, statements),
    checkpointLog: createCheckpointLog(read, statements),
    rows: createRowInserts(statements),
    runLog,
    agentReads,
    async close() {
      await queue.drain();
      await prisma.$disconnect();
      await reads?.$disconnect();
      await pool?.end();
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
