// An item whose signed media URLs expired (a long-open page, a restored queue) is fetched again
// once per start, and it goes on from the same position with the new URLs: the newer media is
// kept here by item, and laid over the item wherever the engine is handed it. The fetch comes
// in, so it is tested without a server.
import type { PodcastDetail } from '@/contracts/podcasts.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { episodeToPlayable, songToPlayable } from './playable.ts';
import { recordable } from './stream-recorder.ts';
import type { PlayerItem } from './use-player.ts';

export interface MediaFetch {
  podcast(podcastId: string): Promise<PodcastDetail>;
  song(songId: string): Promise<SongDto>;
}

export class FreshMedia {
  private readonly newer = new Map<string, PlayerItem>();
  private refreshedFor: number | null = null;

  constructor(
    private readonly fetch: MediaFetch,
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.warn(m, e),
  ) {}

  /**
   * The media of `item` failed during the start `playId`: fetched again, once per start, for
   * Canto's own songs and episodes. True when newer media came (the engine is to load it).
   */
  async refresh(item: PlayerItem | null, playId: number): Promise<boolean> {
    const podcastId = item?.kind === 'episode' ? item.podcastId : undefined;
    const song = item?.kind === 'song' && recordable(item);
    if (!item || !(song || podcastId) || this.refreshedFor === playId) return false;
    this.refreshedFor = playId;
    try {
      let again: PlayerItem | null;
      if (podcastId) {
        const detail = await this.fetch.podcast(podcastId);
        const found = detail.episodes.find((e) => e.id === item.id);
        again = found ? episodeToPlayable(found) : null;
      } else {
        again = songToPlayable(await this.fetch.song(item.id));
      }
      if (!again) return false;
      this.newer.set(item.id, again);
      return true;
    } catch (e) {
      this.log(`Could not refresh the media of ${item.id}`, e);
      return false;
    }
  }

  /** The item with the newest media known for it. */
  mediaOf(item: PlayerItem): PlayerItem {
    const newer = this.newer.get(item.id);
    return newer ? { ...item, media: newer.media, audioUrl: newer.audioUrl } : item;
  }
}
