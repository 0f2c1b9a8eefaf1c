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
          <p className="lead">{`Welcome ${auth.displayName}`}</p>
          <RedirectAfterPause to={pageAfterSignIn(location.state)} />
        </>
      ) : (
        <SignInOptions />
      )}
    </section>
  );
}
