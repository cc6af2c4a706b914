export type {
  AgentQuestion,
  AgentRun,
  ApiToken,
  Checkpoint,
  CheckpointWrite,
  CommandReceipt,
  Consultation,
  ConsultationMessage,
  ConsultationRecord,
  ContextItem,
  Conversation,
  CriticSuggestion,
  Decision,
  Dependency,
  Event,
  Map,
  Message,
  Node,
  Prisma,
  User,
} from '../generated/sqlite/client.ts';
export {
  type AgentReads,
  type DependedOnNode,
  dependenciesOf,
  type NodeNeighbourhoodRead,
  type NodeNeighbourhoodRow,
} from './agent-reads.ts';
export type { CheckpointData, CheckpointLog } from './checkpoint-log.ts';
export {
  type Database,
  type Db,
  type OpenDatabaseOptions,
  openDatabase,
  type ReadDb,
  type Tx,
  withRelaxedWrites,
} from './database.ts';
export * from './enums.ts';
export { isJsonObject, jsonColumn } from './json.ts';
export type { EventRow, LoggedMap, MapLog } from './map-log.ts';
export type { MapVersion } from './map-version.ts';
export { listMigrations, type MigrationFile, migratePostgres, migrateSqlite } from './migrate.ts';
export { repoDir } from './paths.ts';
export type { InsertRow, RowInserts, TableName } from './row-inserts.ts';
export type {
  NodeAgentState,
  NodeRun,
  NodeStateChange,
  QuestionChange,
  QuestionState,
  RunEnd,
  RunLog,
  RunOwnerColumns,
  RunTokens,
} from './run-log.ts';
export { type DatabaseTarget, DEFAULT_DATABASE_URL, type Provider, parseDatabaseUrl } from './url.ts';
export type { WriteDurability, WriteOptions } from './write-queue.ts';
