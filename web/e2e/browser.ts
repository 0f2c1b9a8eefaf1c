import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';

/** `popupBlocker` turns Chromium's own popup blocker back on; Playwright turns it off by default. */
export function launchBrowser({ popupBlocker = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: popupBlocker ? ['--disable-popup-blocking'] : [],
  });
}
