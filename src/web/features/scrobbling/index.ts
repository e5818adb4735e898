// Scrobbling's screen (scrobbling-page) is a lazy route in app.tsx; other features may show
// the card where a listener's settings are.
export { ScrobblingCard } from './scrobbling-card.tsx';
