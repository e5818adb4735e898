CREATE TYPE "public"."song_media_status" AS ENUM('processing', 'ready', 'failed');--> statement-breakpoint
CREATE TABLE "song_renditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"song_id" uuid NOT NULL,
	"format" text NOT NULL,
	"codec" text NOT NULL,
	"mime" text NOT NULL,
	"bitrate_kbps" integer NOT NULL,
	"file_url" text NOT NULL,
	"file_key" text NOT NULL,
	"bytes" bigint NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "song_renditions_codec" CHECK ("song_renditions"."codec" in ('opus', 'aac')),
	CONSTRAINT "song_renditions_bytes_nonneg" CHECK ("song_renditions"."bytes" >= 0),
	CONSTRAINT "song_renditions_duration_ms_nonneg" CHECK ("song_renditions"."duration_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "media_status" "song_media_status" DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "loudness_lufs" double precision;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "true_peak_dbtp" double precision;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "waveform_url" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "waveform_key" text;--> statement-breakpoint
ALTER TABLE "song_renditions" ADD CONSTRAINT "song_renditions_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "song_renditions_song_format_idx" ON "song_renditions" USING btree ("song_id","format");--> statement-breakpoint
-- Songs stored before the pipeline existed get their renditions in the background, as new
-- uploads do (docs/decisions/0014); they play their original meanwhile. The job name and
-- payload are songs/song-media.job.ts's.
UPDATE "songs" SET "media_status" = 'processing' WHERE "file_key" IS NOT NULL;--> statement-breakpoint
INSERT INTO "jobs" ("name", "payload", "singleton_key")
SELECT 'songs.media', jsonb_build_object('songId', "id"), "id"::text FROM "songs" WHERE "file_key" IS NOT NULL;
