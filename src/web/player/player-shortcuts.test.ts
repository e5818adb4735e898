import { describe, expect, it } from 'vitest';
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import {
  shortcutFor,
  shortcutRunner,
  type ShortcutKey,
  type ShortcutTarget,
} from './player-shortcuts.ts';

const key = (k: string, over: Partial<ShortcutKey> = {}): ShortcutKey => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  defaultPrevented: false,
  repeat: false,
  ...over,
});
const el = (tagName: string, over: Partial<ShortcutTarget> = {}): ShortcutTarget => ({
  tagName,
  isContentEditable: false,
  role: null,
  ...over,
});
const shift = { shiftKey: true };

describe('player shortcuts', () => {
  it('Space, Shift+arrows and M on the page', () => {
    expect(shortcutFor(key(' '), null)).toBe('toggle');
    expect(shortcutFor(key('ArrowRight', shift), null)).toBe('next');
    expect(shortcutFor(key('ArrowLeft', shift), null)).toBe('previous');
    expect(shortcutFor(key('m'), null)).toBe('mute');
    expect(shortcutFor(key('M'), el('DIV'))).toBe('mute');
  });

  it('plain arrows and other keys are left alone', () => {
    expect(shortcutFor(key('ArrowRight'), null)).toBeNull();
    expect(shortcutFor(key('ArrowLeft'), null)).toBeNull();
    expect(shortcutFor(key('k'), null)).toBeNull();
    expect(shortcutFor(key('M', shift), null)).toBeNull();
  });

  it('never while typing', () => {
    for (const target of [
      el('INPUT'),
      el('TEXTAREA'),
      el('SELECT'),
      el('DIV', { isContentEditable: true }),
      el('DIV', { role: 'textbox' }),
      el('DIV', { role: 'combobox' }),
      el('SPAN', { role: 'slider' }),
    ]) {
      for (const k of [key(' '), key('m'), key('ArrowRight', shift), key('ArrowLeft', shift)])
        expect(shortcutFor(k, target), `${target.tagName} ${target.role}`).toBeNull();
    }
  });

  it('never with Ctrl, Alt or Meta, on a held key, or once a control handled the key', () => {
    expect(shortcutFor(key('m', { ctrlKey: true }), null)).toBeNull();
    expect(shortcutFor(key(' ', { altKey: true }), null)).toBeNull();
    expect(shortcutFor(key('ArrowRight', { shiftKey: true, metaKey: true }), null)).toBeNull();
    expect(shortcutFor(key(' ', { repeat: true }), null)).toBeNull();
    expect(
      shortcutFor(key('ArrowRight', { shiftKey: true, defaultPrevented: true }), null),
    ).toBeNull();
  });

  it('Space presses a focused button or link, not the player; the other keys still work there', () => {
    expect(shortcutFor(key(' '), el('BUTTON'))).toBeNull();
    expect(shortcutFor(key(' '), el('A'))).toBeNull();
    expect(shortcutFor(key(' '), el('DIV', { role: 'button' }))).toBeNull();
    expect(shortcutFor(key(' '), el('DIV', { role: 'switch' }))).toBeNull();
    expect(shortcutFor(key('m'), el('BUTTON'))).toBe('mute');
    expect(shortcutFor(key('ArrowRight', shift), el('BUTTON'))).toBe('next');
  });

  it('while an episode plays, plain arrows skip back and forward', () => {
    expect(shortcutFor(key('ArrowLeft'), null, true)).toBe('skipBack');
    expect(shortcutFor(key('ArrowRight'), el('BUTTON'), true)).toBe('skipForward');
    // Shift+arrows stay previous and next.
    expect(shortcutFor(key('ArrowRight', shift), null, true)).toBe('next');
    // Not while typing or seeking, nor where arrows move between tabs or radios.
    for (const target of [
      el('INPUT'),
      el('SPAN', { role: 'slider' }),
      el('BUTTON', { role: 'tab' }),
      el('DIV', { role: 'radio' }),
    ])
      expect(shortcutFor(key('ArrowLeft'), target, true), String(target.role)).toBeNull();
    expect(shortcutFor(key('ArrowLeft', { repeat: true }), null, true)).toBeNull();
    expect(shortcutFor(key('ArrowRight', { altKey: true }), null, true)).toBeNull();
  });

  it('menus keep their own keys (type-ahead)', () => {
    expect(shortcutFor(key('m'), el('DIV', { role: 'menuitemradio' }))).toBeNull();
  });
});

describe('shortcutRunner', () => {
  function runner() {
    const calls: string[] = [];
    const run = shortcutRunner({
      toggle: () => calls.push('toggle'),
      next: () => calls.push('next'),
      previous: () => calls.push('previous'),
      toggleMute: () => calls.push('mute'),
      skipBy: (s) => calls.push(`skipBy ${s}`),
    });
    const press = (k: string, target: ShortcutTarget | null, kind: string | null, over = {}) => {
      let prevented = false;
      run({ ...key(k, over), preventDefault: () => (prevented = true) }, target, kind);
      return prevented;
    };
    return { calls, press };
  }

  it('runs the action of the key and keeps the key from the page', () => {
    const { calls, press } = runner();
    expect(press(' ', null, 'song')).toBe(true);
    expect(press('ArrowRight', null, 'song', shift)).toBe(true);
    expect(press('ArrowLeft', null, 'song', shift)).toBe(true);
    expect(press('m', null, 'song')).toBe(true);
    expect(calls).toEqual(['toggle', 'next', 'previous', 'mute']);
  });

  it("an episode's arrows skip back and forward by the app's steps", () => {
    const { calls, press } = runner();
    press('ArrowLeft', null, 'episode');
    press('ArrowRight', null, 'episode');
    expect(calls).toEqual([`skipBy ${-SKIP_BACK_SECONDS}`, `skipBy ${SKIP_FORWARD_SECONDS}`]);
  });

  it('nothing loaded, no shortcut, or typing: nothing runs and the key is the page’s', () => {
    const { calls, press } = runner();
    expect(press(' ', null, null)).toBe(false);
    expect(press('ArrowLeft', null, 'song')).toBe(false);
    expect(press('m', el('INPUT'), 'song')).toBe(false);
    expect(calls).toEqual([]);
  });
});
