-- CreateEnum
CREATE TYPE "TokenScope" AS ENUM ('READ_ONLY', 'FULL');

-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "scope" "TokenScope" NOT NULL DEFAULT 'FULL';

-- AlterTable
ALTER TABLE "AgentRun" ADD COLUMN     "ownerBoot" TEXT,
ADD COLUMN     "ownerInstance" TEXT;
