import type { ModuleContext } from '../../module-context.ts';
import type { EpisodeListing } from '../podcasts/podcasts.module.ts';
import { viaModule } from './subsonic-app-errors.ts';
import { episodeId, parseSubsonicId, podcastId } from './subsonic-browse.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import {
  intParam,
  required,
  SubsonicCode,
  SubsonicError,
  type SubsonicMethods,
  type SubsonicParams,
} from './subsonic-method.ts';

/*
 * Podcasts as Subsonic apps see them. Canto has no podcast subscriptions: a listener's
 * channels are every show, as the web's Podcasts page lists them; shows are published by
 * artists, never fetched from a feed URL, so every episode is 'completed' (on the server) and
 * the methods that manage channels or downloads are refused (error 50); refreshPodcasts has
 * nothing to do and says ok.
 *
 * Bookmarks are the web player's episode progress (the podcasts module's, through its face):
 * a bookmark made on a phone resumes in the browser and the other way round. getBookmarks
 * lists the episodes with a place past 0; deleteBookmark puts the place back to 0 (a played
 * episode stays played, as in the web). Canto keeps no comment with a place, so a bookmark's
 * comment is not kept. Songs have no bookmarks: the web player resumes episodes only.
 */

/** getNewestPodcasts answers at most this many episodes. */
const NEWEST_MAX = 100;
/** A position past a day is refused by the progress rules anyway; this bounds the parse. */
const POSITION_MAX_MS = 1_000_000_000_000;

const iso = (d: Date) => d.toISOString();

function suffixOf(e: EpisodeListing): string {
  return /\.([a-z0-9]{1,5})$/i.exec(e.audioKey ?? '')?.[1]?.toLowerCase() ?? 'mp3';
}

/** The OpenSubsonic PodcastEpisode. */
function episodeEntry(e: EpisodeListing): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: episodeId(e.id),
    streamId: episodeId(e.id),
    channelId: podcastId(e.podcastId),
    parent: podcastId(e.podcastId),
    title: e.title,
    description: e.description ?? '',
    publishDate: iso(e.publishedAt),
    status: 'completed',
    duration: Math.round((e.durationMs ?? 0) / 1000),
    contentType: e.audioMime ?? 'audio/mpeg',
    suffix: suffixOf(e),
    coverArt: podcastId(e.podcastId),
    isDir: false,
    isVideo: false,
    type: 'podcast',
    mediaType: 'podcast',
    created: iso(e.publishedAt),
  };
  if (e.audioBytes !== null) entry.size = e.audioBytes;
  return entry;
}

/** An episode id parameter, or error 70 for anything that names no episode of ours. */
function bookmarkIdOf(params: SubsonicParams): string {
  const id = parseSubsonicId(required(params, 'id'));
  if (id?.kind === 'episode') return id.episodeId;
  if (id?.kind === 'song')
    throw new SubsonicError(SubsonicCode.generic, 'Bookmarks are for podcast episodes');
  throw new SubsonicError(SubsonicCode.notFound, 'Episode not found');
}

const refused = async (): Promise<never> => {
  throw new SubsonicError(
    SubsonicCode.notAuthorized,
    'Podcasts are published on Canto by their artists, not fetched from feeds',
  );
};

/** getPodcasts, getNewestPodcasts, getBookmarks, createBookmark, deleteBookmark. */
export function createPodcastMethods(_ctx: ModuleContext, deps: SubsonicDeps): SubsonicMethods {
  const { podcasts } = deps;

  return {
    async getPodcasts(_caller, params) {
      const include = params.get('includeEpisodes') !== 'false';
      const raw = params.get('id');
      let shows;
      if (raw) {
        const id = parseSubsonicId(raw);
        const show = id?.kind === 'podcast' ? await podcasts.showById(id.podcastId) : null;
        if (!show) throw new SubsonicError(SubsonicCode.notFound, 'Podcast not found');
        shows = [show];
      } else shows = await podcasts.listShows();
      const episodes = include ? await podcasts.episodesOfShows(shows.map((s) => s.id)) : [];
      const byShow = new Map<string, Record<string, unknown>[]>();
      for (const e of episodes)
        byShow.set(e.podcastId, [...(byShow.get(e.podcastId) ?? []), episodeEntry(e)]);
      return {
        podcasts: {
          channel: shows.map((s) => {
            const channel: Record<string, unknown> = {
              id: podcastId(s.id),
              url: s.feed_url,
              title: s.title,
              description: s.description ?? '',
              coverArt: podcastId(s.id),
              status: 'completed',
              episode: include ? (byShow.get(s.id) ?? []) : undefined,
            };
            // Only an absolute cover URL means something to an app on another host.
            if (s.cover_art_url && /^https?:\/\//.test(s.cover_art_url))
              channel.originalImageUrl = s.cover_art_url;
            return channel;
          }),
        },
      };
    },

    async getNewestPodcasts(_caller, params) {
      const count = Math.min(intParam(params, 'count', 20, 0, Number.MAX_SAFE_INTEGER), NEWEST_MAX);
      const episodes = count === 0 ? [] : await podcasts.newestEpisodes(count);
      return { newestPodcasts: { episode: episodes.map(episodeEntry) } };
    },

    refreshPodcasts: async () => ({}),
    createPodcastChannel: refused,
    deletePodcastChannel: refused,
    downloadPodcastEpisode: refused,
    deletePodcastEpisode: refused,

    async getBookmarks(caller) {
      const started = await podcasts.startedEpisodes(caller.userId);
      return {
        bookmarks: {
          bookmark: started.map(({ episode, place }) => ({
            position: place.positionMs,
            username: caller.username,
            comment: '',
            created: iso(place.updatedAt),
            changed: iso(place.updatedAt),
            entry: episodeEntry(episode),
          })),
        },
      };
    },

    async createBookmark(caller, params) {
      const id = bookmarkIdOf(params);
      required(params, 'position');
      const positionMs = intParam(params, 'position', 0, 0, POSITION_MAX_MS);
      await viaModule(podcasts.saveEpisodePlace(caller.userId, id, positionMs / 1000));
      return {};
    },

    async deleteBookmark(caller, params) {
      const id = bookmarkIdOf(params);
      const place = await podcasts.episodePlace(caller.userId, id);
      if (!place || place.positionMs === 0)
        throw new SubsonicError(SubsonicCode.notFound, 'Bookmark not found');
      await viaModule(podcasts.saveEpisodePlace(caller.userId, id, 0));
      return {};
    },
  };
}
