-- The own songs' ids in order: a Subsonic client's full listing (search3, empty query) pages by
-- OFFSET through this index alone, skipping entries, not rows.
CREATE INDEX "songs_own_id_idx" ON "songs" USING btree ("id") WHERE "songs"."source" is null;
