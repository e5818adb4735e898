// The artist's revenue shares nothing with other features; its screen (artist-revenue-page)
// is a lazy route in app.tsx.
export {};
