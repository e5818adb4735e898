CREATE TABLE "subsonic_album_genres" (
	"genre" text NOT NULL,
	"sort_name" text,
	"year" integer NOT NULL,
	"artist_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE INDEX "subsonic_album_genres_walk_idx" ON "subsonic_album_genres" USING btree ("genre","sort_name" collate "C","year","artist_id");--> statement-breakpoint
CREATE INDEX "subsonic_album_genres_album_idx" ON "subsonic_album_genres" USING btree ("artist_id","year");--> statement-breakpoint
-- subsonic_album_genres is kept where the albums are: the refresh that recomputes an album
-- rewrites its genre rows (the rest of the function as migration 0034 made it).
CREATE OR REPLACE FUNCTION subsonic_albums_refresh(artist_ids uuid[], years integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO subsonic_artists (artist_id)
  SELECT DISTINCT k.artist_id FROM unnest(artist_ids) AS k(artist_id) ORDER BY 1
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM subsonic_artists r WHERE r.artist_id = ANY (artist_ids)
  ORDER BY r.artist_id FOR UPDATE;
  INSERT INTO subsonic_albums (artist_id, year)
  SELECT DISTINCT k.artist_id, k.year FROM unnest(artist_ids, years) AS k(artist_id, year)
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM subsonic_albums a
  WHERE (a.artist_id, a.year) IN (SELECT * FROM unnest(artist_ids, years))
  ORDER BY a.artist_id, a.year FOR UPDATE;
  UPDATE subsonic_albums a
  SET artist = c.artist, song_count = c.song_count, duration_ms = c.duration_ms,
    play_count = c.play_count, created = coalesce(c.created, a.created),
    latest = coalesce(c.latest, a.latest), genre = c.genre, genres = c.genres
  FROM (
    SELECT k.artist_id, k.year, t.*
    FROM (SELECT DISTINCT * FROM unnest(artist_ids, years)) AS k(artist_id, year)
    CROSS JOIN LATERAL (
      SELECT max(s.artist) AS artist, count(*)::int AS song_count,
        coalesce(sum(s.duration_ms), 0) AS duration_ms, coalesce(sum(s.play_count), 0) AS play_count,
        min(s.created_at) AS created, max(s.created_at) AS latest,
        mode() WITHIN GROUP (ORDER BY s.genre COLLATE "C") AS genre,
        coalesce(array_agg(DISTINCT lower(s.genre)) FILTER (WHERE s.genre IS NOT NULL), '{}') AS genres
      FROM songs s
      WHERE s.artist_id = k.artist_id AND s.source IS NULL
        AND s.created_at >= make_timestamptz(k.year, 1, 1, 0, 0, 0, 'UTC')
        AND s.created_at < make_timestamptz(k.year + 1, 1, 1, 0, 0, 0, 'UTC')
    ) t
  ) c
  WHERE a.artist_id = c.artist_id AND a.year = c.year
    AND (a.artist, a.song_count, a.duration_ms, a.play_count, a.created, a.latest, a.genre, a.genres)
      IS DISTINCT FROM (c.artist, c.song_count, c.duration_ms, c.play_count, c.created, c.latest, c.genre, c.genres);
  DELETE FROM subsonic_albums a
  WHERE (a.artist_id, a.year) IN (SELECT * FROM unnest(artist_ids, years)) AND a.song_count = 0;
  DELETE FROM subsonic_album_genres g
  WHERE (g.artist_id, g.year) IN (SELECT * FROM unnest(artist_ids, years));
  INSERT INTO subsonic_album_genres (genre, sort_name, year, artist_id)
  SELECT DISTINCT g.genre, lower(a.artist), a.year, a.artist_id
  FROM subsonic_albums a CROSS JOIN LATERAL unnest(a.genres) AS g(genre)
  WHERE (a.artist_id, a.year) IN (SELECT * FROM unnest(artist_ids, years));
  UPDATE subsonic_artists r SET album_count = c.n
  FROM (
    SELECT k.artist_id, (SELECT count(*) FROM subsonic_albums a WHERE a.artist_id = k.artist_id)::int AS n
    FROM (SELECT DISTINCT unnest(artist_ids)) AS k(artist_id)
  ) c
  WHERE r.artist_id = c.artist_id AND r.album_count IS DISTINCT FROM c.n;
  DELETE FROM subsonic_artists r WHERE r.artist_id = ANY (artist_ids) AND r.album_count = 0;
  -- Last of the locks taken here, so it is always taken in the same order.
  UPDATE subsonic_index_version SET version = version + 1 WHERE id = 1 AND artist_ids IS NOT NULL;
END
$$;--> statement-breakpoint
INSERT INTO subsonic_album_genres (genre, sort_name, year, artist_id)
SELECT DISTINCT g.genre, lower(a.artist), a.year, a.artist_id
FROM subsonic_albums a CROSS JOIN LATERAL unnest(a.genres) AS g(genre);
