-- CreateEnum
CREATE TYPE "ConsultationStage" AS ENUM ('NEEDS_PROBLEM', 'UNDERSTANDING', 'CONSULTING');

-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "consultationId" TEXT;

-- AlterTable
-- Existing consultations belong to their map's owner.
ALTER TABLE "Consultation" ADD COLUMN     "ownerId" TEXT,
ADD COLUMN     "stage" "ConsultationStage" NOT NULL DEFAULT 'CONSULTING',
ALTER COLUMN "mapId" DROP NOT NULL;
UPDATE "Consultation" SET "ownerId" = (SELECT "ownerId" FROM "Map" WHERE "Map"."id" = "Consultation"."mapId");
ALTER TABLE "Consultation" ALTER COLUMN "ownerId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "AgentRun_consultationId_idx" ON "AgentRun"("consultationId");

-- CreateIndex
CREATE INDEX "Consultation_ownerId_idx" ON "Consultation"("ownerId");

-- AddForeignKey
ALTER TABLE "AgentRun" ADD CONSTRAINT "AgentRun_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Consultation" ADD CONSTRAINT "Consultation_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
