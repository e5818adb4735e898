// The podcasts feature's public face for the app: the hook that keeps its cache in step with
// the player's saved episode positions, mounted by app.tsx inside the player. Its screens
// (podcasts-page, podcast-upload-page) are lazy routes in app.tsx.
export { useEpisodeProgressCache } from './episode-progress-cache.ts';
/** An episode's row with its play button (recently played lists episodes among songs). */
export { EpisodeRow } from './episode-row.tsx';
