// A listener's choice kept per browser in localStorage (quality, loudness normalisation):
// read by hooks through useSyncExternalStore, so every reader follows a change at once and
// other tabs follow through the storage event.
import { useSyncExternalStore } from 'react';

export interface DeviceSetting<T> {
  get(): T;
  set(value: T): void;
  use(): T;
}

export function deviceSetting<T>(
  key: string,
  fallback: T,
  parse: (stored: string | null) => T,
  format: (value: T) => string,
): DeviceSetting<T> {
  const listeners = new Set<() => void>();
  // Storage can be refused (privacy modes, full quota): the choice then lasts for this page.
  let unsaved: { value: T } | null = null;

  const get = (): T => {
    if (unsaved) return unsaved.value;
    try {
      return parse(localStorage.getItem(key));
    } catch {
      return fallback;
    }
  };

  const subscribe = (onChange: () => void): (() => void) => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === key || e.key === null) onChange();
    };
    listeners.add(onChange);
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(onChange);
      window.removeEventListener('storage', onStorage);
    };
  };

  return {
    get,
    set: (value) => {
      try {
        localStorage.setItem(key, format(value));
        unsaved = null;
      } catch {
        unsaved = { value };
      }
      for (const l of listeners) l();
    },
    use: () => useSyncExternalStore(subscribe, get, () => fallback),
  };
}
