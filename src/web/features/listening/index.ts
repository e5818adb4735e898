// Listening history shares nothing with other features. Its screens (recently-played-page,
// stats-page) are lazy routes in app.tsx.
export {};
