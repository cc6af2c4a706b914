-- CreateIndex
CREATE INDEX "AgentRun_mapId_createdAt_idx" ON "AgentRun"("mapId", "createdAt");

-- CreateIndex
CREATE INDEX "AgentRun_status_finishedAt_idx" ON "AgentRun"("status", "finishedAt");
