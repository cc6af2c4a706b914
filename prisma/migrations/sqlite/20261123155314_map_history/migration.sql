-- AlterTable
ALTER TABLE "Event" ADD COLUMN "actorId" TEXT;
ALTER TABLE "Event" ADD COLUMN "changeKind" TEXT;
ALTER TABLE "Event" ADD COLUMN "changeSeq" INTEGER;
ALTER TABLE "Event" ADD COLUMN "revertsSeq" INTEGER;
ALTER TABLE "Event" ADD COLUMN "runId" TEXT;
ALTER TABLE "Event" ADD COLUMN "step" TEXT;

-- CreateIndex
CREATE INDEX "Event_mapId_runId_idx" ON "Event"("mapId", "runId");
