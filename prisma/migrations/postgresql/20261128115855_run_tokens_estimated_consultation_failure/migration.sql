-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "tokensEstimated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Consultation" ADD COLUMN     "failureCode" TEXT,
ADD COLUMN     "failureReason" TEXT;
