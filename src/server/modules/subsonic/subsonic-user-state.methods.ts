import { profileMessages } from '../../../core/validation/profile.rules.ts';
import type { ModuleContext } from '../../module-context.ts';
import {
  albumEntry,
  artistEntry,
  parseSubsonicId,
  songChild,
  type SubsonicId,
} from './subsonic-browse.ts';
import { createSubsonicBrowseRepository } from './subsonic-browse.repository.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import {
  intParam,
  missingParameter,
  notFound,
  SubsonicCode,
  SubsonicError,
  type SubsonicCaller,
  type SubsonicMethods,
  type SubsonicParams,
} from './subsonic-method.ts';

/*
 * A listener's own state through Subsonic apps: stars, plays, now playing, the play queue.
 *
 * - star/unstar: a song is the web's Like; an artist (`ar-`) the web's Follow (not oneself,
 *   spec §5); an album (`al-`) every one of its songs liked or unliked, since browse shows an
 *   album starred when one of its songs is liked. Every id is checked before anything is
 *   written: one unknown id is error 70 and nothing changes.
 * - scrobble: submission=true records finished plays through the listening module (heard
 *   for the song's duration from `time`), so play counts, stats and revenue count them as any
 *   play; the same (listener, song, time) replayed by a phone counts once. submission=false
 *   sets the player's (`c`) now playing.
 * - getNowPlaying, privacy: listening activity is private in Canto (the spec shows a
 *   listener's plays only to themselves: recently played, stats), so a listener sees only
 *   their own players' entries and an admin sees everyone's. An entry lasts the song's
 *   duration (10 minutes when unknown) and lives in PostgreSQL, so every process answers
 *   alike; a poll is one prepared statement reading the caller's rows by their key.
 * - getPlayQueue/savePlayQueue, and OpenSubsonic's ByIndex pair (indexBasedQueue): one saved
 *   queue per listener (at most 1,000 songs), so another device resumes it; the current song
 *   is kept by its place, so a song queued twice is resumed at the right one. An empty id
 *   list clears it.
 */

/** Ids one star/unstar may name. */
const MAX_STAR_IDS = 500;
/** Plays one scrobble may report (a phone's offline backlog comes in several calls). */
const MAX_SCROBBLES = 500;
/** Songs a saved play queue may hold. */
const MAX_QUEUE = 1000;
/** How far ahead of the server's clock a scrobble's time may be (phones' clocks drift). */
const CLOCK_SKEW_MS = 60_000;
/**
 * How old a scrobbled play may be (Last.fm's rule): a phone offline for a fortnight still
 * counts its plays; a stale clock's years-old plays do not land in long-settled months.
 */
const MAX_SCROBBLE_AGE_MS = 14 * 24 * 3600_000;
/** The most a getStarred2 answer lists of each kind. */
const STARRED_LIMIT = { artists: 1000, albums: 1000, songs: 5000 };
/** At most this many now-playing entries are answered (an admin sees everyone's). */
const NOW_PLAYING_LIMIT = 200;
/** A player's name as stored: the client's `c`, trimmed and cut to the column's limit. */
const PLAYER_NAME_MAX = 100;

const invalid = (message: string) => new SubsonicError(SubsonicCode.generic, message);

const values = (params: SubsonicParams, name: string) => params.all(name).filter((v) => v !== '');

/** The client's name (`c`), which names its player; 'Subsonic' when it sent none. */
function playerName(params: SubsonicParams): string {
  const name = (params.get('c') ?? '').trim().slice(0, PLAYER_NAME_MAX);
  return name === '' ? 'Subsonic' : name;
}

/** A song id, or error 70 for anything else (another kind, a path, garbage). */
function songIdOf(raw: string): string {
  const id = parseSubsonicId(raw);
  if (id?.kind !== 'song') throw notFound('Song');
  return id.songId;
}

const unique = <T>(list: readonly T[]) => [...new Set(list)];

export function createUserStateMethods(ctx: ModuleContext, deps: SubsonicDeps): SubsonicMethods {
  const browse = createSubsonicBrowseRepository(ctx.database.db);
  const { library, social, listening } = deps;

  /** Every own song of `ids` exists, or error 70. */
  const requireSongs = async (ids: readonly string[]) => {
    const found = await browse.ownSongIds(unique(ids));
    if (ids.some((id) => !found.has(id))) throw notFound('Song');
  };

  /**
   * What a star/unstar names, all checked: the songs (an album's included) and the artists.
   * id may be any kind; albumId only albums; artistId only artists.
   */
  async function targetsOf(caller: SubsonicCaller, params: SubsonicParams) {
    const named: { raw: string; want: SubsonicId['kind'] | null }[] = [
      ...values(params, 'id').map((raw) => ({ raw, want: null })),
      ...values(params, 'albumId').map((raw) => ({ raw, want: 'album' as const })),
      ...values(params, 'artistId').map((raw) => ({ raw, want: 'artist' as const })),
    ];
    if (named.length === 0) throw missingParameter('id');
    if (named.length > MAX_STAR_IDS) throw invalid(`At most ${MAX_STAR_IDS} ids at once`);
    const songs: string[] = [];
    const artists: string[] = [];
    const albums: { artistId: string; year: number }[] = [];
    for (const { raw, want } of named) {
      const id = parseSubsonicId(raw);
      if (!id || (want !== null && id.kind !== want)) throw notFound('Item');
      if (id.kind === 'song') songs.push(id.songId);
      else if (id.kind === 'artist') artists.push(id.artistId);
      else if (id.kind === 'album') albums.push({ artistId: id.artistId, year: id.year });
      else throw notFound('Item');
    }
    await requireSongs(songs);
    for (const artist of unique(artists)) {
      if (artist === caller.userId) throw invalid(profileMessages.selfFollow);
      const [row] = await browse.artists(caller.userId, artist);
      if (!row) throw notFound('Artist');
    }
    const seen = new Set<string>();
    for (const album of albums) {
      const key = `${album.artistId}-${album.year}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const rows = await browse.albumSongs(caller.userId, album.artistId, album.year);
      if (rows.length === 0) throw notFound('Album');
      songs.push(...rows.map((r) => r.id));
    }
    return { songs: unique(songs), artists: unique(artists) };
  }

  async function starred(caller: SubsonicCaller) {
    const [artists, albums, songs] = await Promise.all([
      browse.followedArtists(caller.userId, STARRED_LIMIT.artists),
      browse.albums(caller.userId, {
        order: 'starred',
        limit: STARRED_LIMIT.albums,
        offset: 0,
      }),
      browse.starredSongs(caller.userId, STARRED_LIMIT.songs),
    ]);
    return {
      artist: artists.map(artistEntry),
      album: albums.map(albumEntry),
      song: songs.map(songChild),
    };
  }

  /** The queue's song ids (at most MAX_QUEUE, each a song id, or error 70). */
  const queueIds = (params: SubsonicParams) => {
    const ids = values(params, 'id');
    if (ids.length > MAX_QUEUE) throw invalid(`A play queue holds at most ${MAX_QUEUE} songs`);
    return ids.map(songIdOf);
  };

  async function saveQueue(
    caller: SubsonicCaller,
    params: SubsonicParams,
    songIds: string[],
    currentIndex: number | null,
  ) {
    const positionMs = intParam(params, 'position', 0, 0, Number.MAX_SAFE_INTEGER);
    await requireSongs(songIds);
    const saved = await listening.savePlayQueue(caller.userId, {
      songIds,
      currentIndex,
      positionMs,
      changedBy: playerName(params),
    });
    if (!saved) throw notFound('Song');
  }

  /**
   * The caller's saved queue as children, songs deleted since left out; the current index
   * counted among the songs kept (none when the current song itself is gone).
   */
  async function savedQueue(caller: SubsonicCaller) {
    const queue = await listening.playQueue(caller.userId);
    if (!queue) return null;
    const songs = await browse.songsByIds(caller.userId, queue.songIds);
    const present = new Set(songs.map((s) => s.id));
    const kept = queue.songIds.flatMap((id, i) => (present.has(id) ? [i] : []));
    const index = queue.currentIndex === null ? -1 : kept.indexOf(queue.currentIndex);
    return {
      entry: songs.map(songChild),
      currentIndex: index < 0 ? null : index,
      about: {
        position: queue.positionMs,
        username: caller.username,
        changed: queue.changedAt.toISOString(),
        changedBy: queue.changedBy,
      },
    };
  }

  return {
    async star(caller, params) {
      const { songs, artists } = await targetsOf(caller, params);
      if (!(await library.likeSongs(caller.userId, songs))) throw notFound('Song');
      for (const artist of artists) await social.follow(caller.userId, artist);
      return {};
    },

    async unstar(caller, params) {
      const { songs, artists } = await targetsOf(caller, params);
      await library.unlikeSongs(caller.userId, songs);
      for (const artist of artists) await social.unfollow(caller.userId, artist);
      return {};
    },

    async getStarred2(caller) {
      return { starred2: await starred(caller) };
    },

    async getStarred(caller) {
      return { starred: await starred(caller) };
    },

    async scrobble(caller, params) {
      const ids = values(params, 'id');
      if (ids.length === 0) throw missingParameter('id');
      if (ids.length > MAX_SCROBBLES) throw invalid(`At most ${MAX_SCROBBLES} plays at once`);
      const times = values(params, 'time');
      if (times.length > 0 && times.length !== ids.length)
        throw invalid('Give one time per id, or none');
      const submission = params.get('submission') ?? 'true';
      if (submission !== 'true' && submission !== 'false') throw invalid('Invalid submission');
      const songIds = ids.map(songIdOf);
      const now = ctx.clock.now().getTime();
      const at = times.map((t) => {
        if (!/^\d{1,15}$/.test(t)) throw invalid('Invalid time');
        const ms = Number(t);
        if (ms > now + CLOCK_SKEW_MS) throw invalid('A play cannot be in the future');
        if (ms < now - MAX_SCROBBLE_AGE_MS)
          throw invalid('A play older than 14 days cannot be scrobbled');
        return new Date(ms);
      });
      await requireSongs(songIds);
      if (submission === 'false') {
        // A player plays one song at a time: the last one named is the one playing.
        const ok = await listening.setNowPlaying(
          caller.userId,
          playerName(params),
          songIds[songIds.length - 1]!,
        );
        if (!ok) throw notFound('Song');
        return {};
      }
      const recorded = await listening.scrobble(
        caller.userId,
        songIds.map((songId, i) => ({ songId, playedAt: at[i] ?? new Date(now) })),
      );
      if (recorded === null) throw notFound('Song');
      return {};
    },

    async getNowPlaying(caller) {
      const now = ctx.clock.now();
      const rows = await browse.nowPlaying(
        caller.userId,
        caller.roles.includes('admin'),
        now,
        NOW_PLAYING_LIMIT,
      );
      return {
        nowPlaying: {
          entry: rows.map((r) => ({
            ...songChild(r),
            username: r.username,
            minutesAgo: Math.max(
              0,
              Math.floor((now.getTime() - new Date(r.started_at).getTime()) / 60_000),
            ),
            playerId: Number(r.player_id),
            playerName: r.player_name,
          })),
        },
      };
    },

    async getPlayQueue(caller) {
      const queue = await savedQueue(caller);
      if (!queue) return {};
      const playQueue: Record<string, unknown> = { entry: queue.entry, ...queue.about };
      if (queue.currentIndex !== null) playQueue.current = queue.entry[queue.currentIndex]!.id;
      return { playQueue };
    },

    async getPlayQueueByIndex(caller) {
      const queue = await savedQueue(caller);
      if (!queue) return {};
      const playQueueByIndex: Record<string, unknown> = { entry: queue.entry, ...queue.about };
      if (queue.currentIndex !== null) playQueueByIndex.currentIndex = queue.currentIndex;
      return { playQueueByIndex };
    },

    async savePlayQueue(caller, params) {
      const songIds = queueIds(params);
      const rawCurrent = params.get('current');
      let currentIndex: number | null = null;
      if (rawCurrent && songIds.length > 0) {
        currentIndex = songIds.indexOf(songIdOf(rawCurrent));
        if (currentIndex < 0) throw invalid('The current song must be in the queue');
      }
      await saveQueue(caller, params, songIds, currentIndex);
      return {};
    },

    async savePlayQueueByIndex(caller, params) {
      const songIds = queueIds(params);
      const currentIndex =
        params.get('currentIndex') && songIds.length > 0
          ? intParam(params, 'currentIndex', 0, 0, songIds.length - 1)
          : null;
      await saveQueue(caller, params, songIds, currentIndex);
      return {};
    },
  };
}
