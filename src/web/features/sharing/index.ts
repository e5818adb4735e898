// The sharing feature's public face: the Share button (and its dialog) that songs, playlists,
// profiles, shows and episodes carry. Its pages (/song/:id, /show/:id, /episode/:id) are lazy
// routes in app.tsx.
export { ShareButton } from './share-button.tsx';
export type { ShareTarget } from './share-dialog.tsx';
