import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useProviderSignIn } from './use-provider-sign-in.ts';

/** Sign-in through an identity provider, offered only for the providers the server has configured. */
export function ProviderButtons({ google, oidc }: { google: boolean; oidc: string | null }) {
  const { signIn, busy, error } = useProviderSignIn();
  if (!google && oidc === null) return null;
  return (
    <div className="d-grid gap-2 mt-4">
      {error !== null && <Alert variant="danger">{error}</Alert>}
      {google && (
        <Button variant="outline-primary" disabled={busy} onClick={() => void signIn('google')}>
          Signin with Google
        </Button>
      )}
      {oidc !== null && (
        <Button variant="outline-primary" disabled={busy} onClick={() => void signIn('oidc')}>
          {`Sign in with ${oidc}`}
        </Button>
      )}
    </div>
  );
}
