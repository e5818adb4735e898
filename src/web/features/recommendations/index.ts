// Recommendations' public face: the 'Generate AI Playlist' button (home banner). Its screen
// (recommendations-page) is a lazy route in app.tsx.
export { GenerateMixButton } from './generate-mix-button.tsx';
