// Offline downloads' public face for other features and the shell; the Downloads screen
// (downloads-page) is a lazy route in app.tsx.
export {
  DownloadEpisodeButton,
  DownloadPlaylistButton,
  DownloadSongButton,
} from './download-button.tsx';
