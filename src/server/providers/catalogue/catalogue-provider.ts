/**
 * The external music catalogue (spec §7 Functions): asked only when the own
 * search finds nothing, and for home when no songs exist. Its tracks are never stored;
 * they carry `source` and a 30 s `preview_url`.
 */
export type ExternalTrack = {
  source: string;
  externalId: string;
  title: string;
  artist: string | null;
  genre: string | null;
  coverArtUrl: string | null;
  previewUrl: string;
  durationMs: number | null;
  releasedAt: Date | null;
};

export interface CatalogueProvider {
  readonly source: string;
  /** Never throws: a failure is logged by the provider and gives an empty list (spec §8). */
  searchTracks(query: string, limit: number): Promise<ExternalTrack[]>;
}
