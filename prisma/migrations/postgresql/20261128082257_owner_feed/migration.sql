-- AlterTable
ALTER TABLE "User" ADD COLUMN     "lastFeedSeq" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "feedSeq" INTEGER,
ADD COLUMN     "ownerId" TEXT;

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
