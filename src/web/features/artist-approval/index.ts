// Artist approval shares nothing with other features. Its screen (artist-approval-page) is a
// lazy route in app.tsx.
export {};
