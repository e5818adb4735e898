CREATE TABLE "subsonic_albums" (
	"artist_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"artist" text,
	"song_count" integer DEFAULT 0 NOT NULL,
	"duration_ms" bigint DEFAULT 0 NOT NULL,
	"play_count" bigint DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"latest" timestamp with time zone DEFAULT now() NOT NULL,
	"genre" text,
	"genres" text[] DEFAULT '{}'::text[] NOT NULL,
	"shuffle" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "subsonic_albums_artist_id_year_pk" PRIMARY KEY("artist_id","year")
);
--> statement-breakpoint
CREATE TABLE "subsonic_artists" (
	"artist_id" uuid PRIMARY KEY NOT NULL,
	"album_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subsonic_index_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "subsonic_index_version" (id, version) VALUES (1, 0);--> statement-breakpoint
CREATE TABLE "subsonic_song_buckets" (
	"prefix" integer PRIMARY KEY NOT NULL,
	"songs" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "subsonic_albums_newest_idx" ON "subsonic_albums" USING btree ("latest" DESC NULLS LAST,"artist_id","year");--> statement-breakpoint
CREATE INDEX "subsonic_albums_frequent_idx" ON "subsonic_albums" USING btree ("play_count" DESC NULLS LAST,"latest" DESC NULLS LAST,"artist_id","year");--> statement-breakpoint
-- The name orders carry the name itself (INCLUDE, which drizzle cannot express), so that
-- their walks are index-only too.
CREATE INDEX "subsonic_albums_name_idx" ON "subsonic_albums" USING btree (lower("artist") collate "C","year","artist_id") INCLUDE ("artist");--> statement-breakpoint
CREATE INDEX "subsonic_albums_year_idx" ON "subsonic_albums" USING btree ("year",lower("artist") collate "C","artist_id") INCLUDE ("artist");--> statement-breakpoint
CREATE INDEX "subsonic_albums_year_desc_idx" ON "subsonic_albums" USING btree ("year" DESC NULLS LAST,lower("artist") collate "C","artist_id") INCLUDE ("artist");--> statement-breakpoint
CREATE INDEX "subsonic_albums_genres_idx" ON "subsonic_albums" USING gin ("genres") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "subsonic_albums_artist_trgm_idx" ON "subsonic_albums" USING gin ("artist" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "subsonic_albums_shuffle_idx" ON "subsonic_albums" USING btree ("shuffle");--> statement-breakpoint
CREATE INDEX "songs_own_title_idx" ON "songs" USING btree (lower("title") collate "C","id") WHERE "songs"."source" is null;--> statement-breakpoint
-- An own song's bucket: the first three hex digits of its id (4096 buckets, ~250 songs each
-- at a million), and the smallest id in a bucket.
CREATE FUNCTION subsonic_song_bucket(id uuid) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ('x' || left(id::text, 3))::bit(12)::int
$$;--> statement-breakpoint
CREATE FUNCTION subsonic_bucket_start(prefix integer) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (lpad(to_hex(prefix), 3, '0') || '00000-0000-0000-0000-000000000000')::uuid
$$;--> statement-breakpoint
-- Recomputes the given albums from their songs (the songs_artist_created_idx range of each),
-- then their artists' album counts, and bumps the index version. Each artist and album first gets a row and is locked, in
-- key order (artists, then albums), so that two writers of one artist take turns and the
-- second recomputes after the first has committed (each statement of a function reads a
-- fresh snapshot); an album left without songs and an artist without albums are deleted.
CREATE FUNCTION subsonic_albums_refresh(artist_ids uuid[], years integer[]) RETURNS void
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
CREATE FUNCTION subsonic_song_year(created_at timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT extract(year FROM created_at AT TIME ZONE 'UTC')::int
$$;--> statement-breakpoint
CREATE FUNCTION songs_subsonic_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM subsonic_albums_refresh(array_agg(k.artist_id), array_agg(k.year))
  FROM (
    SELECT DISTINCT n.artist_id, subsonic_song_year(n.created_at) AS year
    FROM new_rows n WHERE n.source IS NULL AND n.artist_id IS NOT NULL
  ) k;
  INSERT INTO subsonic_song_buckets AS b (prefix, songs)
  SELECT subsonic_song_bucket(n.id), count(*) FROM new_rows n WHERE n.source IS NULL
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (prefix) DO UPDATE SET songs = b.songs + excluded.songs;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION songs_subsonic_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM subsonic_albums_refresh(array_agg(k.artist_id), array_agg(k.year))
  FROM (
    SELECT DISTINCT o.artist_id, subsonic_song_year(o.created_at) AS year
    FROM old_rows o WHERE o.source IS NULL AND o.artist_id IS NOT NULL
  ) k;
  INSERT INTO subsonic_song_buckets AS b (prefix, songs)
  SELECT subsonic_song_bucket(o.id), -count(*) FROM old_rows o WHERE o.source IS NULL
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (prefix) DO UPDATE SET songs = b.songs + excluded.songs;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Fires for every UPDATE of songs: an album whose song changed anything it shows is
-- recomputed (old and new album, when the song moved); a change of play counts only (the
-- listening fold) adds the difference, the albums locked in key order first.
CREATE FUNCTION songs_subsonic_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  artist_ids uuid[];
  years integer[];
BEGIN
  SELECT array_agg(k.artist_id), array_agg(k.year) INTO artist_ids, years
  FROM (
    SELECT r.artist_id, subsonic_song_year(r.created_at) AS year
    FROM new_rows n JOIN old_rows o ON o.id = n.id,
      LATERAL (VALUES (n.artist_id, n.created_at, n.source), (o.artist_id, o.created_at, o.source))
        AS r(artist_id, created_at, source)
    WHERE (n.artist_id, n.artist, n.created_at, n.source, n.genre, n.duration_ms)
        IS DISTINCT FROM (o.artist_id, o.artist, o.created_at, o.source, o.genre, o.duration_ms)
      AND r.source IS NULL AND r.artist_id IS NOT NULL
    GROUP BY 1, 2
  ) k;
  IF artist_ids IS NOT NULL THEN
    PERFORM subsonic_albums_refresh(artist_ids, years);
  END IF;
  -- The albums just recomputed already hold their songs' new play counts.
  WITH d AS (
    SELECT n.artist_id, subsonic_song_year(n.created_at) AS year,
      sum(n.play_count - o.play_count) AS plays
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.play_count <> o.play_count AND n.source IS NULL AND n.artist_id IS NOT NULL
      AND (n.artist_id, n.artist, n.created_at, n.source, n.genre, n.duration_ms)
        IS NOT DISTINCT FROM (o.artist_id, o.artist, o.created_at, o.source, o.genre, o.duration_ms)
    GROUP BY 1, 2
  ), locked AS (
    SELECT a.artist_id, a.year, d.plays FROM subsonic_albums a JOIN d USING (artist_id, year)
    WHERE (a.artist_id, a.year) NOT IN (SELECT * FROM unnest(artist_ids, years))
    ORDER BY a.artist_id, a.year FOR UPDATE OF a
  )
  UPDATE subsonic_albums a SET play_count = a.play_count + locked.plays
  FROM locked WHERE a.artist_id = locked.artist_id AND a.year = locked.year;
  INSERT INTO subsonic_song_buckets AS b (prefix, songs)
  SELECT c.prefix, sum(c.d) FROM (
    SELECT subsonic_song_bucket(n.id) AS prefix, 1 AS d
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.source IS NULL) IS DISTINCT FROM (o.source IS NULL) AND n.source IS NULL
    UNION ALL
    SELECT subsonic_song_bucket(o.id), -1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.source IS NULL) IS DISTINCT FROM (o.source IS NULL) AND o.source IS NULL
  ) c
  GROUP BY 1 HAVING sum(c.d) <> 0 ORDER BY 1
  ON CONFLICT (prefix) DO UPDATE SET songs = b.songs + excluded.songs;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION songs_subsonic_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM subsonic_albums;
  DELETE FROM subsonic_artists;
  DELETE FROM subsonic_song_buckets;
  UPDATE subsonic_index_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_subsonic_insert AFTER INSERT ON songs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION songs_subsonic_insert();--> statement-breakpoint
CREATE TRIGGER songs_subsonic_delete AFTER DELETE ON songs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION songs_subsonic_delete();--> statement-breakpoint
CREATE TRIGGER songs_subsonic_update AFTER UPDATE ON songs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION songs_subsonic_update();--> statement-breakpoint
CREATE TRIGGER songs_subsonic_truncate AFTER TRUNCATE ON songs
  FOR EACH STATEMENT EXECUTE FUNCTION songs_subsonic_truncate();--> statement-breakpoint
-- The songs already uploaded.
SELECT subsonic_albums_refresh(array_agg(k.artist_id), array_agg(k.year))
FROM (
  SELECT DISTINCT artist_id, subsonic_song_year(created_at) AS year
  FROM songs WHERE source IS NULL AND artist_id IS NOT NULL
) k;--> statement-breakpoint
INSERT INTO subsonic_song_buckets (prefix, songs)
SELECT subsonic_song_bucket(id), count(*) FROM songs WHERE source IS NULL GROUP BY 1 ORDER BY 1;--> statement-breakpoint
ANALYZE "subsonic_albums";
