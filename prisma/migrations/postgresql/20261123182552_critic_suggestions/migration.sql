-- CreateEnum
CREATE TYPE "SuggestionKind" AS ENUM ('GAP', 'OVERLAP', 'CONTRADICTION', 'UNSUPPORTED');

-- CreateEnum
CREATE TYPE "SuggestionStatus" AS ENUM ('OPEN', 'ACCEPTED', 'DISMISSED');

-- AlterEnum
ALTER TYPE "StaleReason" ADD VALUE 'FLAGGED_BY_REVIEW';

-- CreateTable
CREATE TABLE "CriticSuggestion" (
    "id" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" "SuggestionKind" NOT NULL,
    "nodeIds" JSONB NOT NULL,
    "nodeVersions" JSONB NOT NULL,
    "explanation" TEXT NOT NULL,
    "change" JSONB NOT NULL,
    "status" "SuggestionStatus" NOT NULL DEFAULT 'OPEN',
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),

    CONSTRAINT "CriticSuggestion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CriticSuggestion_mapId_status_idx" ON "CriticSuggestion"("mapId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "CriticSuggestion_runId_key_key" ON "CriticSuggestion"("runId", "key");

-- AddForeignKey
ALTER TABLE "CriticSuggestion" ADD CONSTRAINT "CriticSuggestion_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticSuggestion" ADD CONSTRAINT "CriticSuggestion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
