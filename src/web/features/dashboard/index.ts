// The artist dashboard shares nothing with other features; its screen (dashboard-page) is a
// lazy route in app.tsx.
export {};
