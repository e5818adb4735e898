DROP INDEX "songs_genre_idx";--> statement-breakpoint
DROP INDEX "songs_created_at_idx";--> statement-breakpoint
DROP INDEX "songs_play_count_idx";--> statement-breakpoint
CREATE INDEX "songs_genre_created_idx" ON "songs" USING btree (lower("genre"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_genre_play_count_idx" ON "songs" USING btree (lower("genre"),"play_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_title_lower_trgm_gist_idx" ON "songs" USING gist (lower("title") gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_created_at_idx" ON "songs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_play_count_idx" ON "songs" USING btree ("play_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);