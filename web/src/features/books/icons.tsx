/** Drawn inline: the icons cost a few bytes each, where an icon font would cost a request and a CSP entry. */
export function MagnifierIcon() {
  return (
    <svg viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">
      <circle cx="6.5" cy="6.5" r="4.75" fill="none" stroke="currentColor" strokeWidth="1.75" />
      <path d="M10 10l4.5 4.5" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
    </svg>
  );
}

export function SlidersIcon() {
  return (
    <svg viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">
      <path d="M1.5 3.5h13M1.5 8h13M1.5 12.5h13" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      <circle cx="5" cy="3.5" r="1.75" fill="currentColor" />
      <circle cx="11" cy="8" r="1.75" fill="currentColor" />
      <circle cx="7" cy="12.5" r="1.75" fill="currentColor" />
    </svg>
  );
}
