-- A title's pairs of adjacent words, each the first word, the separators between them and
-- the second ('stars midnight', 'r&b'): lower-cased, split at ASCII white space and
-- punctuation as song_terms() (0003) splits, so that a phrase's first two words and what
-- lies between them name the pairs a title containing it must hold (ADR 0011 "Phrases").
CREATE FUNCTION title_pairs(title text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(x.w[i] || x.s[i] || x.w[i + 1] ORDER BY i), '{}')
  FROM (
    SELECT regexp_split_to_array(lower(title), '[\t\n\v\f\r !-/:-@[-`{-~]+') AS w,
      ARRAY(
        SELECT r.m[1]
        FROM regexp_matches(lower(title), '([\t\n\v\f\r !-/:-@[-`{-~]+)', 'g') WITH ORDINALITY AS r(m, n)
        ORDER BY r.n
      ) AS s
  ) x,
    generate_subscripts(x.s, 1) AS i
  WHERE x.w[i] <> '' AND x.w[i + 1] <> ''
$$;--> statement-breakpoint
-- A title's distinct words, lower-cased and split as song_terms() (0003) splits them: one
-- word of a query lies inside one of them (ADR 0011 "Phrases").
CREATE FUNCTION title_words(title text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w), '{}')
  FROM regexp_split_to_table(lower(title), '[\t\n\v\f\r !-/:-@[-`{-~]+') AS w
  WHERE w <> ''
$$;--> statement-breakpoint
CREATE INDEX "songs_artist_genre_play_count_idx" ON "songs" USING btree ("artist_id",lower("genre"),"play_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_artist_genre_created_idx" ON "songs" USING btree ("artist_id",lower("genre"),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "songs_title_pairs_idx" ON "songs" USING gin (title_pairs("title")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "songs_title_words_idx" ON "songs" USING gin (title_words("title")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_pop_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'pop';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_rock_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'rock';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_hip_hop_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'hip hop';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_electronic_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'electronic';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_jazz_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'jazz';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_classical_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'classical';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_r_b_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'r&b';--> statement-breakpoint
CREATE INDEX "songs_title_trgm_gist_country_idx" ON "songs" USING gist (lower("title") gist_trgm_ops) WHERE lower("songs"."genre") = 'country';;--> statement-breakpoint
-- Statistics for the new expression indexes (PGlite runs no ANALYZE of its own).
ANALYZE songs;