// The AI companion's public face (spec §2, §7): the subscribers' panel, which Home shows.
export { CompanionPanel } from './companion-panel.tsx';
