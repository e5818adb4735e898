CREATE TYPE "public"."payment_method" AS ENUM('paypal', 'bank', 'stripe');--> statement-breakpoint
CREATE TYPE "public"."payment_provider" AS ENUM('local', 'stripe');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused');--> statement-breakpoint
CREATE TYPE "public"."withdrawal_status" AS ENUM('pending', 'processing', 'completed', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."notification_type" AS ENUM('new_follower', 'new_release', 'artist_approved', 'artist_rejected', 'withdrawal_completed', 'withdrawal_rejected', 'system');--> statement-breakpoint
CREATE TABLE "podcast_episodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"podcast_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"audio_url" text NOT NULL,
	"audio_key" text,
	"duration_ms" integer,
	"episode_number" integer DEFAULT 1 NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "podcast_episodes_title_len" CHECK (char_length("podcast_episodes"."title") between 1 and 200),
	CONSTRAINT "podcast_episodes_number_min" CHECK ("podcast_episodes"."episode_number" >= 1),
	CONSTRAINT "podcast_episodes_duration_ms_nonneg" CHECK ("podcast_episodes"."duration_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "podcasts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"cover_art_url" text,
	"cover_art_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "podcasts_title_len" CHECK (char_length("podcasts"."title") between 1 and 200),
	CONSTRAINT "podcasts_description_len" CHECK (char_length("podcasts"."description") between 0 and 5000)
);
--> statement-breakpoint
CREATE TABLE "songs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid,
	"artist" text,
	"title" text NOT NULL,
	"genre" text,
	"cover_art_url" text,
	"cover_art_key" text,
	"file_url" text,
	"file_key" text,
	"preview_url" text,
	"source" text,
	"external_id" text,
	"duration_ms" integer,
	"play_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "songs_title_len" CHECK (char_length("songs"."title") between 1 and 200),
	CONSTRAINT "songs_genre_len" CHECK (char_length("songs"."genre") between 0 and 100),
	CONSTRAINT "songs_duration_ms_nonneg" CHECK ("songs"."duration_ms" >= 0),
	CONSTRAINT "songs_play_count_nonneg" CHECK ("songs"."play_count" >= 0),
	CONSTRAINT "songs_playable" CHECK ("songs"."file_url" is not null or "songs"."preview_url" is not null)
);
--> statement-breakpoint
CREATE TABLE "liked_songs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"song_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playlist_tracks" (
	"playlist_id" uuid NOT NULL,
	"song_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playlist_tracks_pkey" PRIMARY KEY("playlist_id","song_id"),
	CONSTRAINT "playlist_tracks_position_nonneg" CHECK ("playlist_tracks"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "playlists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"is_public" boolean DEFAULT true NOT NULL,
	"cover_art_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "playlists_title_len" CHECK (char_length("playlists"."title") between 1 and 100),
	CONSTRAINT "playlists_description_len" CHECK (char_length("playlists"."description") between 0 and 500)
);
--> statement-breakpoint
CREATE TABLE "user_follows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"follower_id" uuid NOT NULL,
	"following_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_follows_not_self" CHECK ("user_follows"."follower_id" <> "user_follows"."following_id")
);
--> statement-breakpoint
CREATE TABLE "artist_daily_analytics" (
	"artist_id" uuid NOT NULL,
	"analytics_date" date NOT NULL,
	"total_streams" integer DEFAULT 0 NOT NULL,
	"unique_listeners" integer DEFAULT 0 NOT NULL,
	"listened_ms" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_daily_analytics_pkey" PRIMARY KEY("artist_id","analytics_date"),
	CONSTRAINT "artist_daily_analytics_streams_nonneg" CHECK ("artist_daily_analytics"."total_streams" >= 0),
	CONSTRAINT "artist_daily_analytics_listeners_nonneg" CHECK ("artist_daily_analytics"."unique_listeners" >= 0),
	CONSTRAINT "artist_daily_analytics_listeners_le_streams" CHECK ("artist_daily_analytics"."unique_listeners" <= "artist_daily_analytics"."total_streams")
);
--> statement-breakpoint
CREATE TABLE "stream_analytics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"song_id" uuid,
	"podcast_episode_id" uuid,
	"played_at" timestamp with time zone DEFAULT now() NOT NULL,
	"listened_ms" integer DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "stream_analytics_one_item" CHECK (num_nonnulls("stream_analytics"."song_id", "stream_analytics"."podcast_episode_id") = 1),
	CONSTRAINT "stream_analytics_listened_ms_nonneg" CHECK ("stream_analytics"."listened_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ad_impressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ad_id" uuid,
	"user_id" uuid,
	"song_id" uuid,
	"podcast_episode_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_impressions_one_item" CHECK (num_nonnulls("ad_impressions"."song_id", "ad_impressions"."podcast_episode_id") <= 1)
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"image_url" text,
	"image_key" text,
	"audio_url" text,
	"audio_key" text,
	"duration_ms" integer DEFAULT 30000 NOT NULL,
	"target_url" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "ads_title_len" CHECK (char_length("ads"."title") between 1 and 200),
	CONSTRAINT "ads_duration_ms_positive" CHECK ("ads"."duration_ms" > 0)
);
--> statement-breakpoint
CREATE TABLE "artist_revenue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"month" text NOT NULL,
	"premium_revenue_cents" bigint DEFAULT 0 NOT NULL,
	"ad_revenue_cents" bigint DEFAULT 0 NOT NULL,
	"tip_revenue_cents" bigint DEFAULT 0 NOT NULL,
	"total_revenue_cents" bigint DEFAULT 0 NOT NULL,
	"total_streams" bigint DEFAULT 0 NOT NULL,
	"calculated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_revenue_month_format" CHECK ("artist_revenue"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "artist_revenue_premium_nonneg" CHECK ("artist_revenue"."premium_revenue_cents" >= 0),
	CONSTRAINT "artist_revenue_ad_nonneg" CHECK ("artist_revenue"."ad_revenue_cents" >= 0),
	CONSTRAINT "artist_revenue_tip_nonneg" CHECK ("artist_revenue"."tip_revenue_cents" >= 0),
	CONSTRAINT "artist_revenue_total_nonneg" CHECK ("artist_revenue"."total_revenue_cents" >= 0),
	CONSTRAINT "artist_revenue_streams_nonneg" CHECK ("artist_revenue"."total_streams" >= 0),
	CONSTRAINT "artist_revenue_total_sum" CHECK ("artist_revenue"."total_revenue_cents" = "artist_revenue"."premium_revenue_cents" + "artist_revenue"."ad_revenue_cents" + "artist_revenue"."tip_revenue_cents")
);
--> statement-breakpoint
CREATE TABLE "artist_withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" "withdrawal_status" DEFAULT 'pending' NOT NULL,
	"payment_method" "payment_method" NOT NULL,
	"payment_details_encrypted" text NOT NULL,
	"payment_details_masked" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"processed_by" uuid,
	"notes" text,
	CONSTRAINT "artist_withdrawals_amount_min" CHECK ("artist_withdrawals"."amount_cents" >= 1000),
	CONSTRAINT "artist_withdrawals_processed_at" CHECK ("artist_withdrawals"."status" not in ('completed', 'rejected') or "artist_withdrawals"."processed_at" is not null),
	CONSTRAINT "artist_withdrawals_notes_len" CHECK (char_length("artist_withdrawals"."notes") between 0 and 1000)
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"provider" "payment_provider" NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_pkey" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "revenue_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"month" text NOT NULL,
	"artists_processed" integer NOT NULL,
	"total_premium_pool_cents" bigint NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ran_by" uuid,
	CONSTRAINT "revenue_runs_month_format" CHECK ("revenue_runs"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "revenue_runs_artists_nonneg" CHECK ("revenue_runs"."artists_processed" >= 0),
	CONSTRAINT "revenue_runs_pool_nonneg" CHECK ("revenue_runs"."total_premium_pool_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"status" "subscription_status" NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_period_order" CHECK ("subscriptions"."current_period_end" > "subscriptions"."current_period_start")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" "notification_type" NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"link" text,
	"read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_title_len" CHECK (char_length("notifications"."title") between 1 and 200),
	CONSTRAINT "notifications_message_len" CHECK (char_length("notifications"."message") between 0 and 2000)
);
--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_podcast_id_podcasts_id_fk" FOREIGN KEY ("podcast_id") REFERENCES "public"."podcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcasts" ADD CONSTRAINT "podcasts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liked_songs" ADD CONSTRAINT "liked_songs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liked_songs" ADD CONSTRAINT "liked_songs_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_tracks" ADD CONSTRAINT "playlist_tracks_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_tracks" ADD CONSTRAINT "playlist_tracks_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlists" ADD CONSTRAINT "playlists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_following_id_users_id_fk" FOREIGN KEY ("following_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_daily_analytics" ADD CONSTRAINT "artist_daily_analytics_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_analytics" ADD CONSTRAINT "stream_analytics_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_analytics" ADD CONSTRAINT "stream_analytics_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_analytics" ADD CONSTRAINT "stream_analytics_podcast_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("podcast_episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD CONSTRAINT "ad_impressions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD CONSTRAINT "ad_impressions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD CONSTRAINT "ad_impressions_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD CONSTRAINT "ad_impressions_podcast_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("podcast_episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_revenue" ADD CONSTRAINT "artist_revenue_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_withdrawals" ADD CONSTRAINT "artist_withdrawals_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_withdrawals" ADD CONSTRAINT "artist_withdrawals_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD CONSTRAINT "revenue_runs_ran_by_users_id_fk" FOREIGN KEY ("ran_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "podcast_episodes_podcast_number_idx" ON "podcast_episodes" USING btree ("podcast_id","episode_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "podcasts_created_at_idx" ON "podcasts" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "podcasts_creator_created_idx" ON "podcasts" USING btree ("creator_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "podcasts_title_trgm_idx" ON "podcasts" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "podcasts_description_trgm_idx" ON "podcasts" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_created_at_idx" ON "songs" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_play_count_idx" ON "songs" USING btree ("play_count" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_artist_created_idx" ON "songs" USING btree ("artist_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_genre_idx" ON "songs" USING btree (lower("genre"));--> statement-breakpoint
CREATE INDEX "songs_title_trgm_idx" ON "songs" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_genre_trgm_idx" ON "songs" USING gin ("genre" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "songs_source_external_key" ON "songs" USING btree ("source","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "liked_songs_user_song_key" ON "liked_songs" USING btree ("user_id","song_id");--> statement-breakpoint
CREATE INDEX "liked_songs_user_created_idx" ON "liked_songs" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "liked_songs_song_idx" ON "liked_songs" USING btree ("song_id");--> statement-breakpoint
CREATE INDEX "playlist_tracks_playlist_position_idx" ON "playlist_tracks" USING btree ("playlist_id","position");--> statement-breakpoint
CREATE INDEX "playlist_tracks_song_idx" ON "playlist_tracks" USING btree ("song_id");--> statement-breakpoint
CREATE INDEX "playlists_user_created_idx" ON "playlists" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "user_follows_pair_key" ON "user_follows" USING btree ("follower_id","following_id");--> statement-breakpoint
CREATE INDEX "user_follows_following_idx" ON "user_follows" USING btree ("following_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stream_analytics_user_played_idx" ON "stream_analytics" USING btree ("user_id","played_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stream_analytics_song_played_idx" ON "stream_analytics" USING btree ("song_id","played_at");--> statement-breakpoint
CREATE INDEX "stream_analytics_episode_played_idx" ON "stream_analytics" USING btree ("podcast_episode_id","played_at");--> statement-breakpoint
CREATE INDEX "stream_analytics_played_idx" ON "stream_analytics" USING btree ("played_at");--> statement-breakpoint
CREATE INDEX "ad_impressions_created_idx" ON "ad_impressions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ads_active_idx" ON "ads" USING btree ("created_at") WHERE "ads"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "artist_revenue_artist_month_key" ON "artist_revenue" USING btree ("artist_id","month");--> statement-breakpoint
CREATE INDEX "artist_revenue_month_idx" ON "artist_revenue" USING btree ("month");--> statement-breakpoint
CREATE INDEX "artist_withdrawals_artist_requested_idx" ON "artist_withdrawals" USING btree ("artist_id","requested_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "artist_withdrawals_status_idx" ON "artist_withdrawals" USING btree ("status","requested_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "revenue_runs_ran_at_idx" ON "revenue_runs" USING btree ("ran_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_sub_key" ON "subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
CREATE INDEX "subscriptions_user_period_idx" ON "subscriptions" USING btree ("user_id","current_period_end" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "subscriptions_period_idx" ON "subscriptions" USING btree ("current_period_start","current_period_end");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS FIRST) WHERE not "notifications"."read";