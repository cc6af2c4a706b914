-- CreateEnum
CREATE TYPE "QuestionStatus" AS ENUM ('PENDING', 'ANSWERED', 'EXPIRED', 'CANCELLED');

-- AlterTable
ALTER TABLE "Map" ADD COLUMN     "tokensUsed" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Node" ADD COLUMN     "statusReason" TEXT;

-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "errorCode" TEXT,
ADD COLUMN     "raw" TEXT;

-- CreateTable
CREATE TABLE "AgentQuestion" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "nodeId" TEXT,
    "interruptId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "context" JSONB NOT NULL,
    "status" "QuestionStatus" NOT NULL DEFAULT 'PENDING',
    "reply" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "answeredAt" TIMESTAMP(3),

    CONSTRAINT "AgentQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommandReceipt" (
    "key" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CommandReceipt_pkey" PRIMARY KEY ("key")
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("threadId","namespace","checkpointId")
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

    CONSTRAINT "CheckpointWrite_pkey" PRIMARY KEY ("threadId","namespace","checkpointId","taskId","idx")
);

-- CreateIndex
CREATE INDEX "AgentQuestion_mapId_status_idx" ON "AgentQuestion"("mapId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "AgentQuestion_runId_interruptId_key" ON "AgentQuestion"("runId", "interruptId");

-- CreateIndex
CREATE INDEX "AgentRun_nodeId_status_idx" ON "AgentRun"("nodeId", "status");

-- AddForeignKey
ALTER TABLE "AgentQuestion" ADD CONSTRAINT "AgentQuestion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
