-- AlterTable
ALTER TABLE "Node" ADD COLUMN "statusReason" TEXT;

-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN "errorCode" TEXT;
ALTER TABLE "AgentRun" ADD COLUMN "raw" TEXT;

-- CreateTable
CREATE TABLE "AgentQuestion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "nodeId" TEXT,
    "interruptId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "context" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "reply" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "answeredAt" DATETIME,
    CONSTRAINT "AgentQuestion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CommandReceipt" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "result" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "threadId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "checkpointId" TEXT NOT NULL,
    "parentCheckpointId" TEXT,
    "checkpointType" TEXT NOT NULL,
    "checkpointData" TEXT NOT NULL,
    "metadataType" TEXT NOT NULL,
    "metadataData" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("threadId", "namespace", "checkpointId")
);

-- CreateTable
CREATE TABLE "CheckpointWrite" (
    "threadId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "checkpointId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "taskPath" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "valueType" TEXT NOT NULL,
    "valueData" TEXT NOT NULL,

    PRIMARY KEY ("threadId", "namespace", "checkpointId", "taskId", "idx")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Map" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "problem" TEXT NOT NULL DEFAULT '',
    "goal" TEXT NOT NULL DEFAULT '',
    "constraints" JSONB NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "mode" TEXT NOT NULL DEFAULT 'STANDARD',
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "autoRun" BOOLEAN NOT NULL DEFAULT true,
    "tokenBudget" INTEGER,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Map_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Map" ("autoRun", "constraints", "createdAt", "goal", "id", "language", "lastSeq", "mode", "ownerId", "problem", "status", "title", "tokenBudget", "updatedAt", "version") SELECT "autoRun", "constraints", "createdAt", "goal", "id", "language", "lastSeq", "mode", "ownerId", "problem", "status", "title", "tokenBudget", "updatedAt", "version" FROM "Map";
DROP TABLE "Map";
ALTER TABLE "new_Map" RENAME TO "Map";
CREATE INDEX "Map_ownerId_idx" ON "Map"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AgentQuestion_mapId_status_idx" ON "AgentQuestion"("mapId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "AgentQuestion_runId_interruptId_key" ON "AgentQuestion"("runId", "interruptId");

-- CreateIndex
CREATE INDEX "AgentRun_nodeId_status_idx" ON "AgentRun"("nodeId", "status");
