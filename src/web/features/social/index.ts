// Social's screens (profile-page, following-page) are lazy routes in app.tsx; artist links on
// songs are the song entity's (components/song/artist-link.tsx). Other features show a
// user's picture with UserAvatar (the dashboard's new followers).
export { UserAvatar } from './user-avatar.tsx';
