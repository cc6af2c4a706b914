import type { Database, Tx } from '@thinkingmap/db';

/** What a transaction was for, judged by the tables it touched. */
export type WriteKind =
  | 'run settled (with its checkpoints)'
  | 'checkpoints alone'
  | 'events alone'
  | 'commands'
  | 'run rows alone';

/** Counts and time spent, per kind of write and per read. */
export interface DbProfile {
  writes: Map<WriteKind, { count: number; ms: number; statements: number }>;
  reads: Map<string, { count: number; ms: number }>;
  /** Forgets what was recorded so far. */
  reset(): void;
}

/** The transaction client's raw statements (the map and checkpoint logs' Kysely statements run as these). */
const RAW_STATEMENTS = new Set(['$queryRaw', '$queryRawUnsafe', '$executeRaw', '$executeRawUnsafe']);

function kindOf(touched: Set<string>): WriteKind {
  const only = (...models: string[]) => [...touched].every((m) => models.includes(m));
  const checkpoints = touched.has('checkpoint') || touched.has('checkpointWrite');
  if (checkpoints && touched.has('event')) return 'run settled (with its checkpoints)';
  if (checkpoints) return 'checkpoints alone';
  if (touched.has('event') && only('event', 'map')) return 'events alone';
  if (only('agentRun')) return 'run rows alone';
  return 'commands';
}

function add(table: Map<string, { count: number; ms: number }>, key: string, ms: number) {
  const row = table.get(key) ?? { count: 0, ms: 0 };
  row.count++;
  row.ms += ms;
  table.set(key, row);
}

/** The object with each of its methods called through `around` (the method's name, the call itself). */
function aroundEach<T extends object>(object: T, around: (name: string, call: () => unknown) => unknown): T {
  return new Proxy(object, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => around(String(key), () => Reflect.apply(value, target, args));
    },
  });
}

/**
 * Wraps a database so every write transaction and every read is counted and timed: where a processed node's
 * time goes. A write's time runs from its call (queue wait included) to its commit.
 */
export function profileDatabase(
  db: Database,
  /** Flush every write to disk, relaxed ones too: what relaxed durability saves, measured in the same run. */
  { flushAll = false } = {},
): { db: Database; profile: DbProfile } {
  const profile: DbProfile = {
    writes: new Map(),
    reads: new Map(),
    reset() {
      profile.writes.clear();
      profile.reads.clear();
    },
  };
  const timed = async (name: string, call: () => unknown) => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      add(profile.reads, name, performance.now() - started);
    }
  };
  const read = new Proxy(db.read, {
    get(target, model) {
      const delegate = Reflect.get(target, model);
      if (!delegate || typeof delegate !== 'object') return delegate;
      return aroundEach(delegate, (method, call) => timed(`${String(model)}.${method}`, call));
    },
  });
  let current: { touched: Set<string> } | undefined;
  const write: Database['write'] = async (work, options) => {
    const touched = new Set<string>();
    let statements = 0;
    const started = performance.now();
    const counted = { touched };
    try {
      return await db.write(
        (tx) => {
          current = counted;
          return work(
            new Proxy(tx, {
              get(target, model) {
                const value = Reflect.get(target, model);
                if (typeof model === 'string' && !model.startsWith('$') && value && typeof value === 'object') {
                  touched.add(model);
                  statements++;
                }
                if (typeof model === 'string' && RAW_STATEMENTS.has(model)) statements++;
                return typeof value === 'function' ? value.bind(target) : value;
              },
            }),
          ).finally(() => {
            if (current === counted) current = undefined;
          });
        },
        flushAll ? { durability: 'full' } : options,
      );
    } finally {
      const kind = kindOf(touched);
      const row = profile.writes.get(kind) ?? { count: 0, ms: 0, statements: 0 };
      row.count++;
      row.ms += performance.now() - started;
      row.statements += statements;
      profile.writes.set(kind, row);
    }
  };
  // What the map log's statements (every command's map row, events and receipts) touch counts as their write's tables
  // (on SQLite one write's work runs at a time; on PostgreSQL this is rough); the statements are counted on the tx.
  const mapLog = aroundEach(db.mapLog, (name, call) => {
    current?.touched.add(name === 'append' ? 'event' : name.includes('eceipt') ? 'commandReceipt' : 'map');
    return call();
  });
  // The checkpoint log's writes likewise; its reads are reads.
  const checkpointWrite =
    (name: 'putCheckpoints' | 'putWrites' | 'deleteThreads') => (tx: Tx, rows: readonly never[]) => {
      if (current && rows.length) current.touched.add('checkpoint');
      return db.checkpointLog[name](tx, rows);
    };
  const checkpointRead =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await fn(...args);
      } finally {
        add(profile.reads, name.includes('.') ? name : `checkpointLog.${name}`, performance.now() - started);
      }
    };
  const checkpointLog: Database['checkpointLog'] = {
    putCheckpoints: checkpointWrite('putCheckpoints'),
    putWrites: checkpointWrite('putWrites'),
    deleteThreads: checkpointWrite('deleteThreads'),
    latest: checkpointRead('latest', db.checkpointLog.latest),
    writesOf: checkpointRead('writesOf', db.checkpointLog.writesOf),
  };
  // The run log's lookups likewise.
  const runLog = aroundEach(db.runLog, (name, call) => {
    current?.touched.add(name === 'nodeState' ? 'node' : 'agentRun');
    return call();
  });
  const agentReads = aroundEach(db.agentReads, (name, call) => timed(`agentReads.${name}`, call));
  return {
    db: {
      provider: db.provider,
      read,
      write,
      mapVersion: db.mapVersion,
      mapLog,
      checkpointLog,
      rows: db.rows,
      runLog,
      agentReads,
      close: () => db.close(),
    },
    profile,
  };
}
