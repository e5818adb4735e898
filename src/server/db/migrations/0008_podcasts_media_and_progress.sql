CREATE TABLE "episode_progress" (
	"user_id" uuid NOT NULL,
	"episode_id" uuid NOT NULL,
	"position_ms" integer DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "episode_progress_pkey" PRIMARY KEY("user_id","episode_id"),
	CONSTRAINT "episode_progress_position_ms_nonneg" CHECK ("episode_progress"."position_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "podcast_episode_renditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"episode_id" uuid NOT NULL,
	"format" text NOT NULL,
	"codec" text NOT NULL,
	"mime" text NOT NULL,
	"bitrate_kbps" integer NOT NULL,
	"file_url" text NOT NULL,
	"file_key" text NOT NULL,
	"bytes" bigint NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "podcast_episode_renditions_codec" CHECK ("podcast_episode_renditions"."codec" in ('opus', 'aac')),
	CONSTRAINT "podcast_episode_renditions_bytes_nonneg" CHECK ("podcast_episode_renditions"."bytes" >= 0),
	CONSTRAINT "podcast_episode_renditions_duration_ms_nonneg" CHECK ("podcast_episode_renditions"."duration_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "audio_bytes" bigint;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "audio_mime" text;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "media_status" "song_media_status" DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "loudness_lufs" double precision;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "true_peak_dbtp" double precision;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "waveform_url" text;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "waveform_key" text;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD COLUMN "download_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "category" text DEFAULT 'Music' NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "explicit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "feed_guid" uuid;--> statement-breakpoint
ALTER TABLE "episode_progress" ADD CONSTRAINT "episode_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "episode_progress" ADD CONSTRAINT "episode_progress_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcast_episode_renditions" ADD CONSTRAINT "podcast_episode_renditions_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "episode_progress_episode_idx" ON "episode_progress" USING btree ("episode_id");--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_episode_renditions_episode_format_idx" ON "podcast_episode_renditions" USING btree ("episode_id","format");--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_description_len" CHECK (char_length("podcast_episodes"."description") between 0 and 5000);--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_audio_bytes_nonneg" CHECK ("podcast_episodes"."audio_bytes" >= 0);--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_download_count_nonneg" CHECK ("podcast_episodes"."download_count" >= 0);--> statement-breakpoint
ALTER TABLE "podcasts" ADD CONSTRAINT "podcasts_language_len" CHECK (char_length("podcasts"."language") between 2 and 35);--> statement-breakpoint
ALTER TABLE "podcasts" ADD CONSTRAINT "podcasts_category_len" CHECK (char_length("podcasts"."category") between 1 and 100);