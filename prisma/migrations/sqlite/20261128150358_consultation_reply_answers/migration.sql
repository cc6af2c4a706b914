-- AlterTable
ALTER TABLE "ConsultationMessage" ADD COLUMN "answersId" TEXT;
