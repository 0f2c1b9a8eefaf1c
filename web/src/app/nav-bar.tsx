import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { useSelector } from 'react-redux';
import { Link, NavLink } from 'react-router';
import { selectIsAdmin } from '../features/auth/auth.slice.ts';
import './nav-bar.css';

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
      <NavDropdown title="Tasks" id="nav-tasks">
        <NavDropdown.Item as={Link} to="/task" eventKey="task-list" id="nav-task-list">
          List
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to="/task/create" eventKey="task-create" id="nav-task-create">
          Create
        </NavDropdown.Item>
      </NavDropdown>
      <NavDropdown title="Bookmarks" id="nav-bookmarks">
        <NavDropdown.Item as={Link} to="/bookmark" eventKey="bookmark-list" id="nav-bookmark-list">
          List
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to="/bookmark/query" eventKey="bookmark-query" id="nav-bookmark-query">
          Query
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to="/bookmark/create" eventKey="bookmark-create" id="nav-bookmark-create">
          Create
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to="/bookmark/tags" eventKey="bookmark-tags" id="nav-bookmark-tags">
          Tags
        </NavDropdown.Item>
      </NavDropdown>
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
