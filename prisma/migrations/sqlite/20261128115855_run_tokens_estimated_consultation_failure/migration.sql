-- AlterTable
ALTER TABLE "Consultation" ADD COLUMN "failureCode" TEXT;
ALTER TABLE "Consultation" ADD COLUMN "failureReason" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AgentRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mapId" TEXT NOT NULL,
    "nodeId" TEXT,
    "agent" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "threadId" TEXT NOT NULL,
    "input" JSONB,
    "output" JSONB,
    "error" TEXT,
    "errorCode" TEXT,
    "raw" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "tokensReserved" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "ownerInstance" TEXT,
    "ownerBoot" TEXT,
    "consultationId" TEXT,
    "forkedFromRunId" TEXT,
    "forkedFromStep" TEXT,
    "tokensEstimated" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "AgentRun_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AgentRun_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AgentRun_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AgentRun_forkedFromRunId_fkey" FOREIGN KEY ("forkedFromRunId") REFERENCES "AgentRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_AgentRun" ("agent", "completionTokens", "consultationId", "createdAt", "error", "errorCode", "finishedAt", "forkedFromRunId", "forkedFromStep", "id", "input", "mapId", "nodeId", "output", "ownerBoot", "ownerInstance", "promptTokens", "raw", "status", "threadId", "tokensReserved", "updatedAt") SELECT "agent", "completionTokens", "consultationId", "createdAt", "error", "errorCode", "finishedAt", "forkedFromRunId", "forkedFromStep", "id", "input", "mapId", "nodeId", "output", "ownerBoot", "ownerInstance", "promptTokens", "raw", "status", "threadId", "tokensReserved", "updatedAt" FROM "AgentRun";
DROP TABLE "AgentRun";
ALTER TABLE "new_AgentRun" RENAME TO "AgentRun";
CREATE UNIQUE INDEX "AgentRun_threadId_key" ON "AgentRun"("threadId");
CREATE INDEX "AgentRun_mapId_status_idx" ON "AgentRun"("mapId", "status");
CREATE INDEX "AgentRun_consultationId_idx" ON "AgentRun"("consultationId");
CREATE INDEX "AgentRun_nodeId_status_idx" ON "AgentRun"("nodeId", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
