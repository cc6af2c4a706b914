-- AlterEnum
ALTER TYPE "DecidedBy" ADD VALUE 'PLANNER';
