-- CreateEnum
CREATE TYPE "ConsultationStrategy" AS ENUM ('INTERRUPT', 'ENQUEUE', 'REJECT');

-- CreateEnum
CREATE TYPE "ConsultationRecordKind" AS ENUM ('FACT', 'REQUIREMENT', 'DECISION', 'OPEN_QUESTION');

-- CreateEnum
CREATE TYPE "ConsultationMessageRole" AS ENUM ('PERSON', 'ASSISTANT', 'SUMMARY');

-- CreateTable
CREATE TABLE "Consultation" (
    "id" TEXT NOT NULL,
    "mapId" TEXT NOT NULL,
    "strategy" "ConsultationStrategy" NOT NULL DEFAULT 'INTERRUPT',
    "plan" JSONB NOT NULL,
    "currentStep" INTEGER NOT NULL DEFAULT 0,
    "context" JSONB NOT NULL,
    "logs" JSONB NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "busy" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Consultation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsultationMessage" (
    "id" TEXT NOT NULL,
    "consultationId" TEXT NOT NULL,
    "role" "ConsultationMessageRole" NOT NULL,
    "text" TEXT NOT NULL,
    "planned" BOOLEAN NOT NULL DEFAULT false,
    "compressed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsultationMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsultationRecord" (
    "id" TEXT NOT NULL,
    "consultationId" TEXT NOT NULL,
    "kind" "ConsultationRecordKind" NOT NULL,
    "content" TEXT NOT NULL,
    "sourceMessageId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConsultationRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Consultation_mapId_idx" ON "Consultation"("mapId");

-- CreateIndex
CREATE INDEX "ConsultationMessage_consultationId_createdAt_idx" ON "ConsultationMessage"("consultationId", "createdAt");

-- CreateIndex
CREATE INDEX "ConsultationRecord_consultationId_idx" ON "ConsultationRecord"("consultationId");

-- AddForeignKey
ALTER TABLE "Consultation" ADD CONSTRAINT "Consultation_mapId_fkey" FOREIGN KEY ("mapId") REFERENCES "Map"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsultationMessage" ADD CONSTRAINT "ConsultationMessage_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsultationRecord" ADD CONSTRAINT "ConsultationRecord_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
