import { useEffect, useId, useRef, useState } from 'react';
import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router';

export interface NavMenuItem {
  to: string;
  label: string;
  /** The item's element id, which tests and the docs name. */
  id: string;
}

/**
 * A menu of the navigation bar, in Bootstrap's own dropdown markup. Not react-bootstrap's
 * NavDropdown: that brings Popper, the positioning library, into the start-up script, while
 * Bootstrap shows a navigation bar's menus in place without it. Its items are react-bootstrap's
 * Nav links, so choosing one closes the phone's collapsed bar as the other links do.
 */
export function NavMenu({ title, id, items }: { title: string; id: string; items: NavMenuItem[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      root.current?.querySelector<HTMLButtonElement>('.dropdown-toggle')?.focus();
    };
    document.addEventListener('click', closeOutside);
    document.addEventListener('focusin', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('click', closeOutside);
      document.removeEventListener('focusin', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div ref={root} className={open ? 'nav-item dropdown show' : 'nav-item dropdown'}>
      <button type="button" id={id} className="nav-link dropdown-toggle" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        {title}
      </button>
      <div id={menuId} className={open ? 'dropdown-menu show' : 'dropdown-menu'} aria-labelledby={id}>
        {items.map((item) => (
          <Nav.Link key={item.id} as={Link} to={item.to} eventKey={item.id} id={item.id} bsPrefix="dropdown-item" onClick={() => setOpen(false)}>
            {item.label}
          </Nav.Link>
        ))}
      </div>
    </div>
  );
}
