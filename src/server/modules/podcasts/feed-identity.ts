import crypto from 'node:crypto';

/*
 * A show's public feed URL and its podcast:guid (docs/decisions/0018). The guid is fixed once, when
 * the show is created, and never changes after (podcast apps and indexes key the show on it,
 * even if PUBLIC_URL later moves).
 */

/**
 * The Podcasting 2.0 "podcast" namespace (podcast-namespace docs/1.0.md, <podcast:guid>):
 * every tool that derives a show's guid from its feed URL uses this one, so indexes agree.
 */
export const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

/** The absolute URL of a show's RSS feed (`publicUrl` has no trailing slash: env.ts). */
export const feedUrlOf = (publicUrl: string, podcastId: string) =>
  `${publicUrl}/api/podcasts/${podcastId}/feed.xml`;

/**
 * RFC 4122 §4.3 name-based UUID, version 5 (SHA-1), with node's crypto: the `uuid` package
 * is not a dependency, and this is the whole algorithm.
 */
export function uuidV5(name: string, namespace: string): string {
  const hash = crypto
    .createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** podcast:guid of a feed URL: UUIDv5 of the URL without its scheme and trailing slashes. */
export function podcastGuidOf(feedUrl: string): string {
  const name = feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
  return uuidV5(name, PODCAST_GUID_NAMESPACE);
}
