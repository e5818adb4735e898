// Keyboard shortcuts: Space play/pause, Shift+→ next, Shift+← previous,
// M mute; while an episode is current, ← skips back 15 s and → forward 30 s.
// Never while the listener types (inputs, text areas, contenteditable, text-like
// widgets), never with Ctrl/Alt/Meta (the browser's and the system's own), never when a
// control already handled the key (a drag handle, a menu), and Space never on a control
// Space activates (a button would be pressed twice). Pure: the key, its target and the
// controls come in.
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import type { PlayerControls } from './use-player.ts';

export type ShortcutAction = 'toggle' | 'next' | 'previous' | 'mute' | 'skipBack' | 'skipForward';

export interface ShortcutKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
  /** True for a held key's repeats: one press, one action. */
  repeat: boolean;
}

/** What matters of the focused element. */
export interface ShortcutTarget {
  /** Upper case, as Element.tagName. */
  tagName: string;
  isContentEditable: boolean;
  role: string | null;
}

// Widgets that take typing or arrow keys themselves.
const TYPING_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'slider',
  'listbox',
  'option',
  'menu',
  'menubar',
  'menuitem',
  'menuitemradio',
  'menuitemcheckbox',
  'grid',
  'tree',
]);
// Controls that Space presses.
const SPACE_TAGS = new Set(['BUTTON', 'A', 'SUMMARY', 'SELECT']);
const SPACE_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'tab']);
// Widgets whose arrows move between their own parts.
const ARROW_ROLES = new Set(['tab', 'tablist', 'radio', 'radiogroup', 'toolbar']);

export function isTypingTarget(t: ShortcutTarget): boolean {
  if (t.isContentEditable) return true;
  if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  return t.role !== null && TYPING_ROLES.has(t.role);
}

/** `episode`: the current item is a podcast episode (plain arrows then skip within it). */
export function shortcutFor(
  e: ShortcutKey,
  target: ShortcutTarget | null,
  episode = false,
): ShortcutAction | null {
  if (e.defaultPrevented || e.repeat || e.ctrlKey || e.altKey || e.metaKey) return null;
  if (target && isTypingTarget(target)) return null;
  if (e.key === ' ' || e.key === 'Spacebar') {
    if (e.shiftKey) return null;
    if (target && (SPACE_TAGS.has(target.tagName) || SPACE_ROLES.has(target.role ?? '')))
      return null;
    return 'toggle';
  }
  if (e.shiftKey && e.key === 'ArrowRight') return 'next';
  if (e.shiftKey && e.key === 'ArrowLeft') return 'previous';
  if (!e.shiftKey && (e.key === 'm' || e.key === 'M')) return 'mute';
  if (episode && !e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
    if (target && ARROW_ROLES.has(target.role ?? '')) return null;
    return e.key === 'ArrowLeft' ? 'skipBack' : 'skipForward';
  }
  return null;
}

/** The focused element as the rules read it (null for the page itself). */
export function describeTarget(el: EventTarget | null): ShortcutTarget | null {
  if (!(el instanceof HTMLElement) || el === document.body) return null;
  return {
    tagName: el.tagName,
    isContentEditable: el.isContentEditable,
    role: el.getAttribute('role'),
  };
}

/** A key press as the page hears it: the key, and the way to keep it from the page. */
export interface ShortcutPress extends ShortcutKey {
  preventDefault(): void;
}

export type ShortcutControls = Pick<
  PlayerControls,
  'toggle' | 'next' | 'previous' | 'toggleMute' | 'skipBy'
>;

/**
 * What the page's key presses do to the player: nothing while nothing is loaded, else the
 * shortcut's action (the key is then kept from the page). `kind`: the current item's.
 */
export function shortcutRunner(controls: ShortcutControls) {
  const run: Record<ShortcutAction, () => void> = {
    toggle: () => controls.toggle(),
    next: () => controls.next(),
    previous: () => controls.previous(),
    mute: () => controls.toggleMute(),
    skipBack: () => controls.skipBy(-SKIP_BACK_SECONDS),
    skipForward: () => controls.skipBy(SKIP_FORWARD_SECONDS),
  };
  return (e: ShortcutPress, target: ShortcutTarget | null, kind: string | null): void => {
    if (kind === null) return;
    const action = shortcutFor(e, target, kind === 'episode');
    if (!action) return;
    e.preventDefault();
    run[action]();
  };
}
