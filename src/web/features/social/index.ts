// Social shares nothing with other features: artist links on songs are the song entity's
// (components/song/artist-link.tsx). Its screens (profile-page, following-page) are lazy
// routes in app.tsx.
export {};
