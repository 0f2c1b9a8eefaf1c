import { Suspense } from 'react';
import Container from 'react-bootstrap/Container';
import { useSelector } from 'react-redux';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingSpinner } from '../components/loading-spinner.tsx';
import { selectAuth } from '../features/auth/auth.slice.ts';
import { ProfileSync } from '../features/profile/profile-sync.tsx';
import { useRememberOpening } from '../lib/history.ts';
import { DocumentTitle } from './document-title.tsx';
import { NavBar } from './nav-bar.tsx';
import { useScreenChanges } from './use-screen-changes.ts';
import './layout.css';

export function Layout() {
  const auth = useSelector(selectAuth);
  useScreenChanges();
  useRememberOpening();
  return (
    <>
      <DocumentTitle />
      {/* Back and Forward find each page scrolled where it was left; a link opens a page at its top. */}
      <ScrollRestoration />
      <NavBar authenticated={auth.authenticated} />
      {/* Keyed by user, so that whoever signs in next gets a stream of their own. */}
      {auth.authenticated && <ProfileSync key={auth.uid} />}
      <Container as="main" className="py-3">
        <Suspense fallback={<LoadingSpinner />}>
          <Outlet />
        </Suspense>
      </Container>
    </>
  );
}
