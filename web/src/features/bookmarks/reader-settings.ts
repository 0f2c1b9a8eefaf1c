/** How the reader view shows kept pages: kept in this browser, for every page. */
export type ReaderTheme = 'light' | 'dark';
export type ReaderViewSettings = { theme: ReaderTheme; fontSize: number };

/** Font sizes offered, in percent of the browser's. */
export const FONT_SIZES = [80, 90, 100, 115, 130, 150, 175] as const;
const KEY = 'organiser.keptPageReader';
const DEFAULTS: ReaderViewSettings = { theme: 'light', fontSize: 100 };

export function loadReaderViewSettings(): ReaderViewSettings {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<ReaderViewSettings> | null;
    return {
      theme: stored?.theme === 'dark' ? 'dark' : 'light',
      fontSize: FONT_SIZES.find((size) => size === stored?.fontSize) ?? DEFAULTS.fontSize,
    };
  } catch {
    return DEFAULTS;
  }
}

export function saveReaderViewSettings(settings: ReaderViewSettings): void {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

/** The next size up or down, staying within those offered. */
export function nextFontSize(current: number, step: 1 | -1): number {
  const at = FONT_SIZES.findIndex((size) => size === current);
  return FONT_SIZES[Math.min(FONT_SIZES.length - 1, Math.max(0, (at === -1 ? 2 : at) + step))] ?? current;
}
