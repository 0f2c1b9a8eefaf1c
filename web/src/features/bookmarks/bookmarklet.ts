/** The popup's size: the create form without scrolling. */
const POPUP = 'width=720,height=680';

/**
 * The bookmarklet: a `javascript:` link that, run on any page, opens this app's create form in a
 * popup with that page's address, title and selected text. It is built from the app's own
 * origin, because it runs on other sites, where a relative address would point at them.
 */
export function bookmarkletCode(origin: string): string {
  const script = `(()=>{const q=new URLSearchParams({url:location.href,title:document.title});const s=String(getSelection()).trim();if(s)q.set('note',s);window.open(${JSON.stringify(`${origin}/bookmark/create?`)}+q,'organiser-bookmark',${JSON.stringify(POPUP)});})();void 0`;
  return `javascript:${encodeURIComponent(script)}`;
}
