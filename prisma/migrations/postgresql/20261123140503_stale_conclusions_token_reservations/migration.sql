-- CreateEnum
CREATE TYPE "StaleReason" AS ENUM ('CHILD_ADDED', 'CHILD_REMOVED', 'CHILD_CHANGED', 'CHILD_STALE', 'DEPENDENCY_CHANGED');

-- AlterTable
ALTER TABLE "Node" ADD COLUMN     "staleReason" "StaleReason",
ADD COLUMN     "staleSince" TIMESTAMP(3),
ADD COLUMN     "staleSourceId" TEXT,
ADD COLUMN     "staleSourceQuestion" TEXT;

-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "tokensReserved" INTEGER NOT NULL DEFAULT 0;
