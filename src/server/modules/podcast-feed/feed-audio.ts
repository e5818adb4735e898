/**
 * Which file an episode's enclosure is. Apple Podcasts (and the apps that follow its list)
 * take MP3 and AAC in MP4, never WAV, FLAC, Ogg or WebM: the episode's AAC rendition once the
 * media pipeline has made it, else an original that already is MP3 or M4A. An episode with
 * neither (a WAV still being transcoded) is not in the feed yet: an enclosure apps refuse
 * would fail the whole feed in Apple's validator.
 */

/** What Apple's feed validator knows the two types as. */
export const FEED_AUDIO_TYPES = { mp3: 'audio/mpeg', m4a: 'audio/x-m4a' } as const;

export type FeedAudioSource = {
  /** The kept original: where it is stored, its size and type if the upload recorded them. */
  original: { stored: string; bytes: number | null; mime: string | null };
  /** The AAC rendition (`aac-128`), if made. */
  aac: { stored: string; bytes: number } | null;
};

export type FeedAudio = {
  /** `<bucket>/<key>` or a bare key, as the rows keep them. */
  stored: string;
  /** Null: the row does not know it (older rows); the stored file says. */
  bytes: number | null;
  type: (typeof FEED_AUDIO_TYPES)[keyof typeof FEED_AUDIO_TYPES];
};

const extensionOf = (stored: string) => /\.([a-z0-9]+)$/i.exec(stored)?.[1]?.toLowerCase();

/** The original's feed type if podcast apps take it as it is, else null. */
function acceptedTypeOf(original: FeedAudioSource['original']): FeedAudio['type'] | null {
  const mime = original.mime?.split(';')[0]?.trim().toLowerCase();
  const extension = extensionOf(original.stored);
  if (mime === 'audio/mpeg' || (!mime && extension === 'mp3')) return FEED_AUDIO_TYPES.mp3;
  const mp4 = ['audio/mp4', 'audio/x-m4a', 'audio/m4a'];
  if ((mime && mp4.includes(mime)) || (!mime && (extension === 'm4a' || extension === 'mp4')))
    return FEED_AUDIO_TYPES.m4a;
  return null;
}

/** The file the feed encloses for an episode, or null when there is none apps accept yet. */
export function feedAudioOf({ original, aac }: FeedAudioSource): FeedAudio | null {
  if (aac) return { stored: aac.stored, bytes: aac.bytes, type: FEED_AUDIO_TYPES.m4a };
  const type = acceptedTypeOf(original);
  return type ? { stored: original.stored, bytes: original.bytes, type } : null;
}
