// The ads feature's public face for other features: the Home ad card. Its screen
// (admin-ads-page) is a lazy route in app.tsx.
export { AdSlot } from './ad-slot.tsx';
