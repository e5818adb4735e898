// The notifications' public face for the shell: the top bar's bell and menu. Its screen
// (notifications-page) is a lazy route in app.tsx.
export { NotificationBell } from './notification-bell.tsx';
