/**
 * Who writes each table (docs/decisions/0024): one module (`modules/<name>/`) or one piece of
 * shared infrastructure (`src/server/<name>/`). Only the owner's code inserts, updates or
 * deletes its rows; any other code reads them at most (joins, counts) and changes them by
 * calling the owner's module. `tests/unit/table-owners.test.ts` reads every write in
 * src/server and fails on one that is neither the owner's nor listed in `sharedWrites`.
 *
 * A new table gets its line here with its schema; `null` is a table no code writes yet: the
 * first module that does claims it here.
 */
export const tableOwners: Record<string, string | null> = {
  // Accounts, sessions, sign-in tokens (auth.schema.ts).
  users: 'auth',
  sessions: 'auth',
  refresh_tokens: 'auth',
  auth_tokens: 'auth',
  profiles: 'social',
  user_roles: 'roles',
  mfa_factors: 'mfa',
  mfa_challenges: 'mfa',
  signing_keys: 'security',
  rate_limits: 'security',
  // Phone apps' passwords for the /rest API (subsonic.schema.ts).
  subsonic_app_passwords: 'subsonic',
  // Subsonic's albums, artists' album counts, song-id buckets and index version: kept by
  // triggers on songs (migration 0034), not by code.
  subsonic_albums: 'subsonic',
  subsonic_song_buckets: 'subsonic',
  subsonic_artists: 'subsonic',
  subsonic_album_genres: 'subsonic',
  subsonic_index_version: 'subsonic',

  // The catalogue (catalogue.schema.ts, media.schema.ts). search_terms, song_genres and
  // song_artists are kept by triggers on songs (migration 0003), not by code.
  songs: 'songs',
  song_renditions: 'songs',
  song_lyrics: 'songs',
  search_terms: 'songs',
  song_genres: 'songs',
  song_artists: 'songs',
  podcasts: 'podcasts',
  podcast_episodes: 'podcasts',
  podcast_episode_renditions: 'podcasts',
  episode_progress: 'podcasts',
  podcast_episode_downloads: 'podcast-feed',

  // A listener's library and follows (library.schema.ts).
  playlists: 'library',
  playlist_tracks: 'library',
  liked_songs: 'library',
  user_follows: 'social',

  // Listening records; the totals and daily rollups are kept by triggers on stream_analytics
  // (migration 0007).
  stream_analytics: 'listening',
  artist_daily_analytics: 'listening',
  listener_totals: 'listening',
  listener_songs: 'listening',
  listener_artists: 'listening',
  listener_genres: 'listening',
  play_count_deltas: 'listening',
  // Listeners' ListenBrainz and Last.fm connections and their plays to send (scrobbling.schema.ts).
  scrobble_connections: 'scrobbling',
  scrobble_deliveries: 'scrobbling',
  listening_deltas: 'listening',
  // A listener's Subsonic players' now playing and saved play queue.
  now_playing: 'listening',
  play_queues: 'listening',
  // The dashboard's count of each episode's finished days of plays (ADR 0016).
  episode_play_totals: 'artist-analytics',

  notifications: 'notifications',

  // Money (money.schema.ts).
  subscriptions: 'premium',
  payment_events: 'premium',
  ads: 'ads',
  ad_impressions: 'ads',
  ad_showings: 'ads',
  ad_renditions: 'ads',
  revenue_runs: 'revenue',
  artist_revenue: 'revenue',
  artist_withdrawals: 'withdrawals',
  // The lock row and payout settings, and submits' Idempotency-Keys (withdrawals.schema.ts).
  artist_accounts: 'withdrawals',
  withdrawal_idempotency_keys: 'withdrawals',
  tips: 'tips',

  // The AI Music Creator's history (ai.schema.ts).
  ai_generations: 'ai',
  // Recommendations (recommendations.schema.ts): the neighbours job's table and each
  // listener's AI mix.
  song_neighbours: 'recommendations',
  ai_mixes: 'recommendations',

  jobs: 'jobs',
};

/**
 * Writes by code that does not own the table, each for a reason ADR 0024 gives. `statement`
 * pins a raw SQL write to exactly that statement; `file` names the one file allowed to write
 * tables it holds as values (so the check cannot name them).
 */
export type SharedWrite = {
  writer: string;
  tables: readonly string[];
  statement?: RegExp;
  file?: string;
  why: string;
};

export const sharedWrites: readonly SharedWrite[] = [
  {
    writer: 'listening',
    tables: ['songs'],
    statement:
      /^update songs set play_count = play_count \+ locked\.plays from locked where songs\.id = locked\.id returning 1$/,
    why: "the fold of pending plays (play_count_deltas, listening's) into songs.play_count: the rows taken and the counts added are one statement, so a play is counted exactly once (ADR 0016)",
  },
  {
    writer: 'podcast-feed',
    tables: ['podcast_episodes'],
    statement:
      /^update podcast_episodes set download_count = download_count \+ 1 where id in \(select episode_id from fresh\) returning 1$/,
    why: "a download's day record and its episode's download_count + 1 are one statement: a listener's download counts once a day (ADR 0019)",
  },
  {
    writer: 'media',
    file: 'modules/media/media-references.repository.ts',
    tables: [
      'songs',
      'song_renditions',
      'podcasts',
      'podcast_episodes',
      'podcast_episode_renditions',
      'ads',
      'ad_renditions',
      'profiles',
      'playlists',
    ],
    why: "the media reconciler's repair: a row whose file is gone loses the row or its media column, only if it still names that file (ADR 0012)",
  },
  {
    writer: 'media',
    file: 'media/media-rows.repository.ts',
    tables: [
      'songs',
      'song_renditions',
      'podcast_episodes',
      'podcast_episode_renditions',
      'ads',
      'ad_renditions',
    ],
    why: "the media job's rows (status, loudness, waveform, renditions) of the tables their owner module hands it: songs, podcasts and ads each configure it in their own repository, so only they decide which table it writes (src/server/media/README.md)",
  },
  {
    writer: 'demo',
    file: 'demo/demo.repository.ts',
    tables: [
      'songs',
      'podcasts',
      'podcast_episodes',
      'user_follows',
      'liked_songs',
      'playlists',
      'playlist_tracks',
      'stream_analytics',
      'notifications',
      'artist_daily_analytics',
      'ads',
    ],
    why: 'demo content goes into a database nobody has used, in one transaction; accounts, profiles and roles go through their modules',
  },
];
