-- CreateTable
CREATE TABLE "CriticSuggestion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mapId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "nodeIds" JSONB NOT NULL,
    "nodeVersions" JSONB NOT NULL,
    "explanation" TEXT NOT NULL,
    "change" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "key" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    CONSTRAINT "CriticSuggestion_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CriticSuggestion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CriticSuggestion_mapId_status_idx" ON "CriticSuggestion"("mapId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "CriticSuggestion_runId_key_key" ON "CriticSuggestion"("runId", "key");
