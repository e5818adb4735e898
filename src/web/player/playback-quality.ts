// The listener's streaming quality: a choice per browser, Normal unless changed.
// Data saver and Normal aim at a bitrate; High plays the original upload.

export const QUALITIES = ['data-saver', 'normal', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

export const DEFAULT_QUALITY: Quality = 'normal';

/** What people call each choice, and what it means, for the control. */
export const QUALITY_LABELS: Record<Quality, { name: string; detail: string }> = {
  'data-saver': { name: 'Data saver', detail: '96 kbit/s' },
  normal: { name: 'Normal', detail: '160 kbit/s' },
  high: { name: 'High', detail: 'Original file' },
};

/** The bitrate a quality aims at; High has none (the original, else the best rendition). */
export const QUALITY_TARGET_KBPS: Record<Quality, number | null> = {
  'data-saver': 96,
  normal: 160,
  high: null,
};

export const isQuality = (value: unknown): value is Quality =>
  typeof value === 'string' && (QUALITIES as readonly string[]).includes(value);

/** A stored value read back: anything unknown (old, edited, absent) is the default. */
export const parseQuality = (stored: string | null): Quality =>
  isQuality(stored) ? stored : DEFAULT_QUALITY;
