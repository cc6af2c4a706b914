-- DropIndex
DROP INDEX "Map_ownerId_idx";

-- DropIndex
DROP INDEX "AgentRun_mapId_createdAt_idx";

-- CreateIndex
CREATE INDEX "Map_ownerId_status_idx" ON "Map"("ownerId", "status");

-- CreateIndex
CREATE INDEX "Node_mapId_status_idx" ON "Node"("mapId", "status");

-- CreateIndex
CREATE INDEX "AgentRun_mapId_createdAt_promptTokens_completionTokens_toke_idx" ON "AgentRun"("mapId", "createdAt", "promptTokens", "completionTokens", "tokensEstimated");

-- CreateIndex
CREATE INDEX "AgentQuestion_status_createdAt_idx" ON "AgentQuestion"("status", "createdAt");
