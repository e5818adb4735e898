-- A play's start appends its song here; a periodic fold adds the rows into songs.play_count
-- in batches (docs/decisions/0016), so no play updates the wide, much-indexed songs row.
CREATE TABLE "play_count_deltas" (
	"song_id" uuid NOT NULL
);
