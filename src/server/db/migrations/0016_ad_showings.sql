CREATE TABLE "ad_showings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ad_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"song_id" uuid,
	"podcast_episode_id" uuid,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_showings_one_item" CHECK (num_nonnulls("ad_showings"."song_id", "ad_showings"."podcast_episode_id") <= 1),
	CONSTRAINT "ad_showings_duration_ms_positive" CHECK ("ad_showings"."duration_ms" > 0)
);
--> statement-breakpoint
ALTER TABLE "ad_showings" ADD CONSTRAINT "ad_showings_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_showings" ADD CONSTRAINT "ad_showings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_showings" ADD CONSTRAINT "ad_showings_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_showings" ADD CONSTRAINT "ad_showings_podcast_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("podcast_episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_showings_user_created_idx" ON "ad_showings" USING btree ("user_id","created_at");