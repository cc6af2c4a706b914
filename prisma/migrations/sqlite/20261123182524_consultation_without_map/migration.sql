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
    CONSTRAINT "AgentRun_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AgentRun_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AgentRun_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_AgentRun" ("agent", "completionTokens", "createdAt", "error", "errorCode", "finishedAt", "id", "input", "mapId", "nodeId", "output", "ownerBoot", "ownerInstance", "promptTokens", "raw", "status", "threadId", "tokensReserved", "updatedAt") SELECT "agent", "completionTokens", "createdAt", "error", "errorCode", "finishedAt", "id", "input", "mapId", "nodeId", "output", "ownerBoot", "ownerInstance", "promptTokens", "raw", "status", "threadId", "tokensReserved", "updatedAt" FROM "AgentRun";
DROP TABLE "AgentRun";
ALTER TABLE "new_AgentRun" RENAME TO "AgentRun";
CREATE UNIQUE INDEX "AgentRun_threadId_key" ON "AgentRun"("threadId");
CREATE INDEX "AgentRun_mapId_status_idx" ON "AgentRun"("mapId", "status");
CREATE INDEX "AgentRun_consultationId_idx" ON "AgentRun"("consultationId");
CREATE INDEX "AgentRun_nodeId_status_idx" ON "AgentRun"("nodeId", "status");
CREATE TABLE "new_Consultation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mapId" TEXT,
    "ownerId" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'CONSULTING',
    "strategy" TEXT NOT NULL DEFAULT 'INTERRUPT',
    "plan" JSONB NOT NULL,
    "currentStep" INTEGER NOT NULL DEFAULT 0,
    "context" JSONB NOT NULL,
    "logs" JSONB NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "busy" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Consultation_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Consultation_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Existing consultations belong to their map's owner.
INSERT INTO "new_Consultation" ("busy", "context", "createdAt", "currentStep", "id", "logs", "mapId", "ownerId", "plan", "strategy", "summary", "updatedAt", "version") SELECT "busy", "context", "createdAt", "currentStep", "id", "logs", "mapId", (SELECT "ownerId" FROM "Map" WHERE "Map"."id" = "Consultation"."mapId"), "plan", "strategy", "summary", "updatedAt", "version" FROM "Consultation";
DROP TABLE "Consultation";
ALTER TABLE "new_Consultation" RENAME TO "Consultation";
CREATE INDEX "Consultation_mapId_idx" ON "Consultation"("mapId");
CREATE INDEX "Consultation_ownerId_idx" ON "Consultation"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
