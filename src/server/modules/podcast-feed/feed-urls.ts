/**
 * The public addresses the feed names besides its own (the podcasts module's `feedUrlOf`):
 * absolute on PUBLIC_URL (env.publicUrl, no trailing slash), stable for good, since podcast
 * apps keep them.
 */

/** An episode's enclosure: its original audio, public and never expiring. */
export const episodeAudioUrlOf = (publicUrl: string, episodeId: string) =>
  `${publicUrl}/api/episodes/${episodeId}/audio`;

/** The show's page in the web app (the web app reads `?show=` on /podcasts). */
export const showPageUrlOf = (publicUrl: string, podcastId: string) =>
  `${publicUrl}/podcasts?show=${podcastId}`;

/** The show's artwork as Apple's directory wants it (a square 1400 px JPEG of its cover). */
export const artworkUrlOf = (publicUrl: string, podcastId: string) =>
  `${publicUrl}/api/podcasts/${podcastId}/artwork.jpg`;
