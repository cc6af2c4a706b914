-- CreateEnum
CREATE TYPE "Language" AS ENUM ('zh', 'en');

-- AlterTable: convert in place so every map keeps its language (anything but 'zh' was treated as English).
ALTER TABLE "Map" ALTER COLUMN "language" DROP DEFAULT;
ALTER TABLE "Map" ALTER COLUMN "language" TYPE "Language"
  USING (CASE WHEN "language" = 'zh' THEN 'zh' ELSE 'en' END)::"Language";
ALTER TABLE "Map" ALTER COLUMN "language" SET DEFAULT 'en';
