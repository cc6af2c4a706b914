-- AlterTable
ALTER TABLE "Node" ADD COLUMN "staleReason" TEXT;
ALTER TABLE "Node" ADD COLUMN "staleSince" DATETIME;
ALTER TABLE "Node" ADD COLUMN "staleSourceId" TEXT;
ALTER TABLE "Node" ADD COLUMN "staleSourceQuestion" TEXT;

-- AlterTable (SQLite adds a NOT NULL column with a constant default in place; no table rebuild)
ALTER TABLE "AgentRun" ADD COLUMN "tokensReserved" INTEGER NOT NULL DEFAULT 0;
