CREATE TABLE "now_playing" (
	"user_id" uuid NOT NULL,
	"player_name" text NOT NULL,
	"player_id" integer GENERATED ALWAYS AS IDENTITY (sequence name "now_playing_player_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"song_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "now_playing_pkey" PRIMARY KEY("user_id","player_name"),
	CONSTRAINT "now_playing_player_name_len" CHECK (char_length("now_playing"."player_name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "play_queues" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"song_ids" uuid[] NOT NULL,
	"current_index" integer,
	"position_ms" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"changed_by" text NOT NULL,
	CONSTRAINT "play_queues_position_nonneg" CHECK ("play_queues"."position_ms" >= 0),
	CONSTRAINT "play_queues_changed_by_len" CHECK (char_length("play_queues"."changed_by") between 0 and 100),
	CONSTRAINT "play_queues_songs_max" CHECK (cardinality("play_queues"."song_ids") <= 1000),
	CONSTRAINT "play_queues_current_index" CHECK ("play_queues"."current_index" >= 0 and "play_queues"."current_index" < cardinality("play_queues"."song_ids"))
);
--> statement-breakpoint
ALTER TABLE "stream_analytics" ADD COLUMN "scrobbled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "now_playing" ADD CONSTRAINT "now_playing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "now_playing" ADD CONSTRAINT "now_playing_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_queues" ADD CONSTRAINT "play_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "now_playing_expires_idx" ON "now_playing" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stream_analytics_scrobble_key" ON "stream_analytics" USING btree ("user_id","song_id","played_at") WHERE "stream_analytics"."scrobbled";