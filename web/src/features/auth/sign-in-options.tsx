import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { Providers } from '../../../../contract/auth.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { LoginForm } from './login-form.tsx';
import { ProviderButtons } from './provider-buttons.tsx';
import { RegisterForm } from './register-form.tsx';
import { useProviders } from './use-providers.ts';

export function SignInOptions() {
  const providers = useProviders();
  if (providers.status === 'loading') return <LoadingSpinner />;
  if (providers.status === 'failed') return <Alert variant="danger">{providers.message}</Alert>;
  const offered = providers.providers;
  return offered.setup ? <FirstAccount providers={offered} /> : <SignIn providers={offered} />;
}

function FirstAccount({ providers }: { providers: Providers }) {
  return (
    <>
      <h1 className="h3 mb-3">Create the first account</h1>
      <p>No account exists yet. The account you create now administers this Organiser.</p>
      <RegisterForm />
      <ProviderButtons google={providers.google} oidc={providers.oidc} />
    </>
  );
}

function SignIn({ providers }: { providers: Providers }) {
  const [creating, setCreating] = useState(false);
  const { local, signup, google, oidc, passwordReset } = providers;

  return (
    <>
      <h1 className="h3 mb-3">{creating ? 'Create an account' : 'Sign in'}</h1>
      {local && (creating ? <RegisterForm /> : <LoginForm />)}
      {local && signup && (
        <Button variant="link" className="px-0 mt-2" onClick={() => setCreating(!creating)}>
          {creating ? 'Sign in instead' : 'Sign up instead'}
        </Button>
      )}
      {local && passwordReset && !creating && (
        <Link to="/forgot-password" className="btn btn-link px-0 mt-2 ms-3">
          Forgot your password?
        </Link>
      )}
      <ProviderButtons google={google} oidc={oidc} />
      {!local && !google && oidc === null && (
        <Alert variant="warning">No sign-in method is configured on this server.</Alert>
      )}
    </>
  );
}
