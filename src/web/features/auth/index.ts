// Auth shares nothing with other features: the session it opens is app-wide
// (src/web/session/). Its screens (auth-page, security-page) are lazy routes in app.tsx.
export {};
