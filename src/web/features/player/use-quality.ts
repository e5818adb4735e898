// The listener's streaming quality, kept per browser in localStorage (issue 8) and shared by
// the player engine and the control; other tabs follow through the storage event.
import { useSyncExternalStore } from 'react';
import { DEFAULT_QUALITY, parseQuality, type Quality } from './playback-quality.ts';

const KEY = 'canto:quality';
const listeners = new Set<() => void>();
// Storage can be refused (privacy modes, full quota): the choice then lasts for this page.
let unsaved: Quality | null = null;

function read(): Quality {
  if (unsaved) return unsaved;
  try {
    return parseQuality(localStorage.getItem(KEY));
  } catch {
    return DEFAULT_QUALITY;
  }
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY || e.key === null) onChange();
  };
  listeners.add(onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

export function setQuality(quality: Quality): void {
  try {
    localStorage.setItem(KEY, quality);
    unsaved = null;
  } catch {
    unsaved = quality;
  }
  for (const l of listeners) l();
}

export function useQuality(): Quality {
  return useSyncExternalStore(subscribe, read, () => DEFAULT_QUALITY);
}
