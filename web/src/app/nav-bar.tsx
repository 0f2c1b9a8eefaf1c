import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { useSelector } from 'react-redux';
import { NavLink } from 'react-router';
import { selectIsAdmin } from '../features/auth/auth.slice.ts';
import { NavMenu, type NavMenuItem } from './nav-menu.tsx';
import './nav-bar.css';

const TASK_MENU: NavMenuItem[] = [
  { to: '/task', label: 'List', id: 'nav-task-list' },
  { to: '/task/create', label: 'Create', id: 'nav-task-create' },
];
const BOOKMARK_MENU: NavMenuItem[] = [
  { to: '/bookmark', label: 'List', id: 'nav-bookmark-list' },
  { to: '/bookmark/query', label: 'Query', id: 'nav-bookmark-query' },
  { to: '/bookmark/create', label: 'Create', id: 'nav-bookmark-create' },
  { to: '/bookmark/tags', label: 'Tags', id: 'nav-bookmark-tags' },
];

export function NavBar({ authenticated }: { authenticated: boolean }) {
  return (
    <Navbar bg="light" expand="lg" collapseOnSelect className="app-navbar">
      <Container fluid>
        <Navbar.Brand href="#">Organiser</Navbar.Brand>
        <Navbar.Toggle aria-controls="app-nav" />
        <Navbar.Collapse id="app-nav">{authenticated ? <SignedInLinks /> : <SignedOutLinks />}</Navbar.Collapse>
      </Container>
    </Navbar>
  );
}

function SignedInLinks() {
  const admin = useSelector(selectIsAdmin);
  return (
    <Nav className="me-auto">
      <Nav.Link as={NavLink} to="/book" eventKey="books">
        Books
      </Nav.Link>
      <Nav.Link as={NavLink} to="/shelf" eventKey="shelves" id="nav-shelves">
        Shelves
      </Nav.Link>
      <NavMenu title="Tasks" id="nav-tasks" items={TASK_MENU} />
      <NavMenu title="Bookmarks" id="nav-bookmarks" items={BOOKMARK_MENU} />
      <Nav.Link as={NavLink} to="/profile" eventKey="profile">
        Profile
      </Nav.Link>
      {admin && (
        <Nav.Link as={NavLink} to="/admin" eventKey="admin">
          Administration
        </Nav.Link>
      )}
      <Nav.Link as={NavLink} to="/logout" eventKey="logout">
        Log Out
      </Nav.Link>
    </Nav>
  );
}

function SignedOutLinks() {
  return (
    <Nav className="me-auto">
      <Nav.Link as={NavLink} to="/login" eventKey="login">
        Log in
      </Nav.Link>
    </Nav>
  );
}
