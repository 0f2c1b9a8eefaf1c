import { useEffect, useRef } from 'react';
import { bookmarkletCode } from './bookmarklet.ts';

/**
 * "Save to Organiser", a link to drag to the bookmarks bar. React refuses to render a
 * `javascript:` href (it writes a blocking one instead), so the link gets it from the DOM, through
 * a ref; clicking it here does nothing but say what it is for.
 */
export function BookmarkletLink() {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.setAttribute('href', bookmarkletCode(window.location.origin));
  }, []);

  return (
    <p className="small mb-3" id="bookmarklet">
      <a ref={link} className="btn btn-outline-secondary btn-sm me-2" onClick={(event) => event.preventDefault()} draggable>
        Save to Organiser
      </a>
      Drag this button to your browser’s bookmarks bar, then press it on any page to save that page here.
    </p>
  );
}
