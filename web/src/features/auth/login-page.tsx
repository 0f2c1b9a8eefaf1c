import { useSelector } from 'react-redux';
import { useLocation } from 'react-router';
import { RedirectAfterPause } from '../../components/redirect-after-pause.tsx';
import { selectAuth } from './auth.slice.ts';
import { pageAfterSignIn } from './requested-page.ts';
import { SignInOptions } from './sign-in-options.tsx';

export function LoginPage() {
  const auth = useSelector(selectAuth);
  const location = useLocation();

  return (
    <section id="login" className="mx-auto" style={{ maxWidth: '28rem' }}>
      {auth.authenticated ? (
        <>
          <h1 className="h3 mb-3">{`Welcome ${auth.displayName}`}</h1>
          <RedirectAfterPause to={pageAfterSignIn(location.state)} />
        </>
      ) : (
        <SignInOptions />
      )}
    </section>
  );
}
