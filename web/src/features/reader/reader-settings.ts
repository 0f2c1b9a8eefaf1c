import type { ReaderSettings } from './reader-types.ts';

const KEY = 'organiser.reader';
export const FONT_SIZES = [80, 90, 100, 110, 125, 150, 175, 200];
const DEFAULTS: ReaderSettings = { theme: 'light', flow: 'paginated', fontSize: 100 };

/** The reader's look is this browser's own (a phone and a desktop differ), kept beside the app's state. */
export function loadReaderSettings(): ReaderSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<ReaderSettings>;
    return {
      theme: saved.theme === 'dark' || saved.theme === 'sepia' ? saved.theme : DEFAULTS.theme,
      flow: saved.flow === 'scrolled' ? 'scrolled' : DEFAULTS.flow,
      fontSize: FONT_SIZES.includes(saved.fontSize ?? 0) ? (saved.fontSize as number) : DEFAULTS.fontSize,
    };
  } catch {
    return DEFAULTS;
  }
}

export function saveReaderSettings(settings: ReaderSettings): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // A browser that keeps nothing still reads; the look is the default next time.
  }
}
