CREATE TABLE "ad_renditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ad_id" uuid NOT NULL,
	"format" text NOT NULL,
	"codec" text NOT NULL,
	"mime" text NOT NULL,
	"bitrate_kbps" integer NOT NULL,
	"file_url" text NOT NULL,
	"file_key" text NOT NULL,
	"bytes" bigint NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_renditions_codec" CHECK ("ad_renditions"."codec" in ('opus', 'aac')),
	CONSTRAINT "ad_renditions_bytes_nonneg" CHECK ("ad_renditions"."bytes" >= 0),
	CONSTRAINT "ad_renditions_duration_ms_nonneg" CHECK ("ad_renditions"."duration_ms" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD COLUMN "showing_id" uuid;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "media_status" "song_media_status" DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "loudness_lufs" double precision;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "true_peak_dbtp" double precision;--> statement-breakpoint
ALTER TABLE "ad_renditions" ADD CONSTRAINT "ad_renditions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_renditions_ad_format_idx" ON "ad_renditions" USING btree ("ad_id","format");--> statement-breakpoint
CREATE UNIQUE INDEX "ad_impressions_showing_key" ON "ad_impressions" USING btree ("showing_id");