-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "nodeId" TEXT,
    "kind" TEXT NOT NULL,
    "choice" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "confidence" REAL,
    "decidedBy" TEXT NOT NULL,
    "overridden" JSONB,
    "key" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Decision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Decision_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Decision_nodeId_createdAt_idx" ON "Decision"("nodeId", "createdAt");

-- CreateIndex
CREATE INDEX "Decision_mapId_idx" ON "Decision"("mapId");

-- CreateIndex
CREATE UNIQUE INDEX "Decision_runId_key_key" ON "Decision"("runId", "key");
