import Button from 'react-bootstrap/Button';
import { openSignInPopup } from './auth.api.ts';

/** Sign-in through an identity provider, offered only for the providers the server has configured. */
export function ProviderButtons({ google, oidc }: { google: boolean; oidc: string | null }) {
  if (!google && oidc === null) return null;
  return (
    <div className="d-grid gap-2 mt-4">
      {google && (
        <Button variant="outline-primary" onClick={() => openSignInPopup('google')}>
          Signin with Google
        </Button>
      )}
      {oidc !== null && (
        <Button variant="outline-primary" onClick={() => openSignInPopup('oidc')}>
          {`Sign in with ${oidc}`}
        </Button>
      )}
    </div>
  );
}
