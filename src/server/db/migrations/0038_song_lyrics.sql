CREATE TABLE "song_lyrics" (
	"song_id" uuid PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"synced" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "song_lyrics_text_len" CHECK (octet_length("song_lyrics"."text") between 1 and 32768)
);
--> statement-breakpoint
ALTER TABLE "song_lyrics" ADD CONSTRAINT "song_lyrics_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;