-- Search reads the head of a sort's index (the 1,000 most played or newest songs, in a genre
-- or not) and each matching artist's first songs, and needs only id, title, genre, artist,
-- play count and date of each (ADR 0011 "Covering indexes"). The same eight indexes, with the
-- same keys, now carry those columns (INCLUDE), so those reads are index-only scans: a head
-- is ~16 index pages instead of ~1,000 heap pages scattered over the table. Drizzle cannot
-- express INCLUDE, so the schema keeps the keys and this migration adds the columns.
DROP INDEX "songs_created_at_idx";--> statement-breakpoint
CREATE INDEX "songs_created_at_idx" ON "songs" USING btree ("created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist", "play_count");--> statement-breakpoint
DROP INDEX "songs_play_count_idx";--> statement-breakpoint
CREATE INDEX "songs_play_count_idx" ON "songs" USING btree ("play_count" DESC NULLS FIRST, "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist");--> statement-breakpoint
DROP INDEX "songs_artist_created_idx";--> statement-breakpoint
CREATE INDEX "songs_artist_created_idx" ON "songs" USING btree ("artist_id", "created_at" DESC NULLS FIRST) INCLUDE ("id", "title", "genre", "artist", "play_count");--> statement-breakpoint
DROP INDEX "songs_artist_play_count_idx";--> statement-breakpoint
CREATE INDEX "songs_artist_play_count_idx" ON "songs" USING btree ("artist_id", "play_count" DESC NULLS FIRST, "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist");--> statement-breakpoint
DROP INDEX "songs_artist_genre_play_count_idx";--> statement-breakpoint
CREATE INDEX "songs_artist_genre_play_count_idx" ON "songs" USING btree ("artist_id", lower("genre"), "play_count" DESC NULLS FIRST, "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist");--> statement-breakpoint
DROP INDEX "songs_artist_genre_created_idx";--> statement-breakpoint
CREATE INDEX "songs_artist_genre_created_idx" ON "songs" USING btree ("artist_id", lower("genre"), "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist", "play_count");--> statement-breakpoint
DROP INDEX "songs_genre_created_idx";--> statement-breakpoint
CREATE INDEX "songs_genre_created_idx" ON "songs" USING btree (lower("genre"), "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist", "play_count");--> statement-breakpoint
DROP INDEX "songs_genre_play_count_idx";--> statement-breakpoint
CREATE INDEX "songs_genre_play_count_idx" ON "songs" USING btree (lower("genre"), "play_count" DESC NULLS FIRST, "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST) INCLUDE ("title", "genre", "artist");
