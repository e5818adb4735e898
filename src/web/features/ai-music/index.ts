// The AI Music Creator shares nothing with other features; its screen (ai-music-page) is a
// lazy route in app.tsx.
export {};
