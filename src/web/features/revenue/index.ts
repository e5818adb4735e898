// Revenue shares nothing with other features yet. Its admin screen (admin-revenue-page) is a
// lazy route in app.tsx.
export {};
