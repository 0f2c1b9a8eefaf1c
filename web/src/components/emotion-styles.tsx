import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { ReactNode } from 'react';

/**
 * react-select styles itself through emotion, which writes its rules into <style> elements. The
 * Content Security Policy (`style-src 'self'`, no 'unsafe-inline') blocks every such element, even
 * an empty one whose rules come by insertRule (Chromium: "Applying inline style violates…"). Rules
 * added through the CSS object model to a constructed style sheet are not inline styles, and are
 * allowed; so this cache keeps emotion's rules in one sheet adopted by the document.
 */
function createConstructedSheetCache(key: string): EmotionCache {
  const cache = createCache({ key, speedy: true });
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  cache.sheet.insert = (rule) => {
    try {
      sheet.insertRule(rule, sheet.cssRules.length);
    } catch {
      // A rule for another browser's prefixed selector; emotion's own speedy sheet skips these too.
    }
  };
  cache.sheet.flush = () => sheet.replaceSync('');
  cache.sheet.hydrate = () => {};
  return cache;
}

let cache: EmotionCache | undefined;

/** One sheet for the page, made when the first styled component shows. */
function pageCache(): EmotionCache {
  cache ??= createConstructedSheetCache('organiser');
  return cache;
}

/** Gives the emotion-styled components inside (react-select) styles that the CSP allows. */
export function EmotionStyles({ children }: { children: ReactNode }) {
  return <CacheProvider value={pageCache()}>{children}</CacheProvider>;
}
