-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "forkedFromRunId" TEXT,
ADD COLUMN     "forkedFromStep" TEXT;

-- AddForeignKey
ALTER TABLE "AgentRun" ADD CONSTRAINT "AgentRun_forkedFromRunId_fkey" FOREIGN KEY ("forkedFromRunId") REFERENCES "AgentRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;
