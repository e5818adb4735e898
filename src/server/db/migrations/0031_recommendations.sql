CREATE TABLE "ai_mixes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"playlist_id" uuid NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ai_mixes_playlist_key" UNIQUE("playlist_id")
);
--> statement-breakpoint
CREATE TABLE "song_neighbours" (
	"song_id" uuid NOT NULL,
	"neighbour_id" uuid NOT NULL,
	"score" real NOT NULL,
	CONSTRAINT "song_neighbours_pkey" PRIMARY KEY("song_id","neighbour_id")
);
--> statement-breakpoint
ALTER TABLE "ai_mixes" ADD CONSTRAINT "ai_mixes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_mixes" ADD CONSTRAINT "ai_mixes_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_neighbours" ADD CONSTRAINT "song_neighbours_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_neighbours" ADD CONSTRAINT "song_neighbours_neighbour_id_songs_id_fk" FOREIGN KEY ("neighbour_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "song_neighbours_neighbour_idx" ON "song_neighbours" USING btree ("neighbour_id");