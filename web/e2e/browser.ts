import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}
