// The podcast queries' keys, apart from the hooks: the episode-progress cache update, which
// the app composes beside the player in its first chunk, takes the keys without the screens.
export const podcastKeys = {
  all: ['podcasts'] as const,
  list: ['podcasts', 'list'] as const,
  detail: (id: string) => ['podcasts', 'detail', id] as const,
  /** The artist's own shows (the upload form). */
  mine: ['me', 'podcasts'] as const,
};
