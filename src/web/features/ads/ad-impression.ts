// What an impression says was playing when the ad appeared (docs/decisions/0023: its 0.5 ¢ goes
// to that song's artist or that episode's show creator): the player's current item, only
// while it plays, and only an uploaded song (an external catalogue preview pays no one here).
import type { AdImpressionBody } from '@/contracts/ads.contract.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function playingItem(
  current: { id: string; kind: 'song' | 'episode' } | null,
  playing: boolean,
): Pick<AdImpressionBody, 'song_id' | 'podcast_episode_id'> {
  if (!current || !playing || !UUID.test(current.id)) return {};
  return current.kind === 'song' ? { song_id: current.id } : { podcast_episode_id: current.id };
}
