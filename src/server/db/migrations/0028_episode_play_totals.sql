CREATE TABLE "episode_play_totals" (
	"episode_id" uuid PRIMARY KEY NOT NULL,
	"plays" bigint NOT NULL,
	"counted_until" timestamp with time zone NOT NULL,
	CONSTRAINT "episode_play_totals_plays_nonneg" CHECK ("episode_play_totals"."plays" >= 0)
);
--> statement-breakpoint
ALTER TABLE "episode_play_totals" ADD CONSTRAINT "episode_play_totals_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;