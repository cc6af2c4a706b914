-- AlterTable
ALTER TABLE "Event" ADD COLUMN "feedSeq" INTEGER;
ALTER TABLE "Event" ADD COLUMN "ownerId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "isLocal" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastFeedSeq" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_User" ("createdAt", "id", "isLocal", "name") SELECT "createdAt", "id", "isLocal", "name" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill (written by hand): each stored event's owner (its map's; for a map already deleted, the person whose
-- changes its events record) and its position in that owner's feed, keeping the order events were stored in (per
-- map, the order of `seq`); then each user's last feed position.
UPDATE "Event" SET "ownerId" = COALESCE(
  (SELECT "m"."ownerId" FROM "Map" AS "m" WHERE "m"."id" = "Event"."mapId"),
  (SELECT "e"."actorId" FROM "Event" AS "e" WHERE "e"."mapId" = "Event"."mapId" AND "e"."actorId" IS NOT NULL LIMIT 1)
);
UPDATE "Event" SET "feedSeq" = "ranked"."n"
FROM (
  SELECT "id", ROW_NUMBER() OVER (PARTITION BY "ownerId" ORDER BY "id") AS "n" FROM "Event" WHERE "ownerId" IS NOT NULL
) AS "ranked"
WHERE "ranked"."id" = "Event"."id";
UPDATE "User" SET "lastFeedSeq" = COALESCE((SELECT MAX("e"."feedSeq") FROM "Event" AS "e" WHERE "e"."ownerId" = "User"."id"), 0);

-- CreateIndex
CREATE UNIQUE INDEX "Event_ownerId_feedSeq_key" ON "Event"("ownerId", "feedSeq");
