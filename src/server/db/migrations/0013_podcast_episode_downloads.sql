CREATE TABLE "podcast_episode_downloads" (
	"episode_id" uuid NOT NULL,
	"listener" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "podcast_episode_downloads_episode_id_listener_day_pk" PRIMARY KEY("episode_id","listener","day")
);
--> statement-breakpoint
ALTER TABLE "podcast_episode_downloads" ADD CONSTRAINT "podcast_episode_downloads_episode_id_podcast_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "podcast_episode_downloads_day_idx" ON "podcast_episode_downloads" USING btree ("day");