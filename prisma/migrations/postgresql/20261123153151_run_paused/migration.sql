-- AlterEnum
ALTER TYPE "RunStatus" ADD VALUE 'PAUSED';
