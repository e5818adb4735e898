// Keyboard shortcuts (issue 9 point 8): Space play/pause, Shift+→ next, Shift+← previous,
// M mute. Never while the listener types (inputs, text areas, contenteditable, text-like
// widgets), never with Ctrl/Alt/Meta (the browser's and the system's own), never when a
// control already handled the key (a drag handle, a menu), and Space never on a control
// Space activates (a button would be pressed twice). Pure: the key and its target come in.

export type ShortcutAction = 'toggle' | 'next' | 'previous' | 'mute';

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

export function isTypingTarget(t: ShortcutTarget): boolean {
  if (t.isContentEditable) return true;
  if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  return t.role !== null && TYPING_ROLES.has(t.role);
}

export function shortcutFor(e: ShortcutKey, target: ShortcutTarget | null): ShortcutAction | null {
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
