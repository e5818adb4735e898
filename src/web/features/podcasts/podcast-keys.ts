// The podcast queries' keys, apart from the hooks: the player updates an episode's progress
// in the cached show without importing the podcast screens (which import the player).
export const podcastKeys = {
  all: ['podcasts'] as const,
  list: ['podcasts', 'list'] as const,
  detail: (id: string) => ['podcasts', 'detail', id] as const,
  /** The artist's own shows (the upload form). */
  mine: ['me', 'podcasts'] as const,
};
