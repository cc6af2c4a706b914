-- CreateEnum
CREATE TYPE "ChangeKind" AS ENUM ('EDIT', 'UNDO', 'REDO', 'RESTORE');

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "actorId" TEXT,
ADD COLUMN     "changeKind" "ChangeKind",
ADD COLUMN     "changeSeq" INTEGER,
ADD COLUMN     "revertsSeq" INTEGER,
ADD COLUMN     "runId" TEXT,
ADD COLUMN     "step" TEXT;

-- CreateIndex
CREATE INDEX "Event_mapId_runId_idx" ON "Event"("mapId", "runId");
