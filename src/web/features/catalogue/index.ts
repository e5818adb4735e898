// The catalogue's public face for other features: the song card as listeners meet it. Its
// screens (home-page, browse-page, search-page) are lazy routes in app.tsx.
export { SongCardWithActions } from './song-card-with-actions.tsx';
