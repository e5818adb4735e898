CREATE TABLE "scrobble_connections" (
	"user_id" uuid NOT NULL,
	"service" text NOT NULL,
	"sealed_secret" text,
	"status" text DEFAULT 'disconnected' NOT NULL,
	"account_name" text,
	"last_error" text,
	"pending_token" text,
	"pending_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scrobble_connections_user_id_service_pk" PRIMARY KEY("user_id","service"),
	CONSTRAINT "scrobble_connections_service" CHECK ("scrobble_connections"."service" in ('listenbrainz', 'lastfm')),
	CONSTRAINT "scrobble_connections_status" CHECK ("scrobble_connections"."status" in ('connected', 'disconnected')),
	CONSTRAINT "scrobble_connections_account_name_len" CHECK (char_length("scrobble_connections"."account_name") between 1 and 200),
	CONSTRAINT "scrobble_connections_last_error_len" CHECK (char_length("scrobble_connections"."last_error") between 0 and 500)
);
--> statement-breakpoint
CREATE TABLE "scrobble_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"service" text NOT NULL,
	"play_id" uuid NOT NULL,
	"artist" text NOT NULL,
	"track" text NOT NULL,
	"duration_ms" integer,
	"listened_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "scrobble_deliveries_service" CHECK ("scrobble_deliveries"."service" in ('listenbrainz', 'lastfm')),
	CONSTRAINT "scrobble_deliveries_state" CHECK ("scrobble_deliveries"."state" in ('pending', 'sent', 'held', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "scrobble_connections" ADD CONSTRAINT "scrobble_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrobble_deliveries" ADD CONSTRAINT "scrobble_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrobble_deliveries" ADD CONSTRAINT "scrobble_deliveries_play_id_stream_analytics_id_fk" FOREIGN KEY ("play_id") REFERENCES "public"."stream_analytics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scrobble_deliveries_play_key" ON "scrobble_deliveries" USING btree ("play_id","service");--> statement-breakpoint
CREATE INDEX "scrobble_deliveries_held_idx" ON "scrobble_deliveries" USING btree ("user_id","service") WHERE "scrobble_deliveries"."state" = 'held';