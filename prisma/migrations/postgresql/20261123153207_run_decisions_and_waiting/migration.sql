-- CreateEnum
CREATE TYPE "DecisionKind" AS ENUM ('INTENT', 'STRATEGY', 'SUB_QUESTIONS', 'DEPENDENCIES', 'CONCLUSION_KIND', 'AUTO_START');

-- CreateEnum
CREATE TYPE "DecidedBy" AS ENUM ('MODEL', 'PERSON', 'SYSTEM');

-- AlterEnum
ALTER TYPE "RunStatus" ADD VALUE 'WAITING_FOR_DEPENDENCIES';

-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "nodeId" TEXT,
    "kind" "DecisionKind" NOT NULL,
    "choice" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION,
    "decidedBy" "DecidedBy" NOT NULL,
    "overridden" JSONB,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Decision_nodeId_createdAt_idx" ON "Decision"("nodeId", "createdAt");

-- CreateIndex
CREATE INDEX "Decision_mapId_idx" ON "Decision"("mapId");

-- CreateIndex
CREATE UNIQUE INDEX "Decision_runId_key_key" ON "Decision"("runId", "key");

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;
