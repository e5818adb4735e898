// The podcasts feature's public face for the app: its cache's answer to a saved episode
// position, handed to the player. Its screens (podcasts-page, podcast-upload-page) are lazy
// routes in app.tsx.
export { showEpisodeProgress } from './episode-progress-cache.ts';
