/** The popup's size: the create form without scrolling. */
const POPUP = 'width=720,height=680';

/** What the create form, opened by the bookmarklet, sends the page to ask for its HTML (bookmark-capture.ts). */
export const SEND_PAGE = 'organiser:send-page';
/** The type of the page's answer: `{type, html}`. */
export const PAGE_SENT = 'organiser:page';

/**
 * The bookmarklet: a `javascript:` link that, run on any page, opens this app's create form in a
 * popup with that page's address, title and selected text. It is built from the app's own
 * origin, because it runs on other sites, where a relative address would point at them. When the
 * form it opened (that window, of this origin) asks, it sends the page's HTML as the browser has
 * it, so that a page the server cannot reach (behind a sign-in) is kept all the same.
 */
export function bookmarkletCode(origin: string): string {
  const app = JSON.stringify(origin);
  const script =
    `(()=>{const o=${app};const q=new URLSearchParams({url:location.href,title:document.title});const s=String(getSelection()).trim();if(s)q.set('note',s);q.set('capture','1');` +
    `const w=window.open(${JSON.stringify(`${origin}/bookmark/create?`)}+q,'organiser-bookmark',${JSON.stringify(POPUP)});` +
    `window.addEventListener('message',(e)=>{if(e.source===w&&e.origin===o&&e.data===${JSON.stringify(SEND_PAGE)})w.postMessage({type:${JSON.stringify(PAGE_SENT)},html:document.documentElement.outerHTML},o);});})();void 0`;
  return `javascript:${encodeURIComponent(script)}`;
}
