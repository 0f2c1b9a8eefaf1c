import { useSelector } from 'react-redux';
import { selectAuth } from '../auth/auth.slice.ts';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { AppPasswordsSection } from './app-passwords-section.tsx';
import { CalendarSection } from './calendar-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { EReadersSection } from './e-readers-section.tsx';
import { IdentityField } from './identity-field.tsx';
import { KeptPagesSection } from './kept-pages-section.tsx';
import { NoticesSection } from './notices-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { SignInMethodsSection } from './sign-in-methods-section.tsx';
import { TimezoneSelect } from './timezone-select.tsx';

export function ProfilePage() {
  const auth = useSelector(selectAuth);
  // The router shows this page only to a signed-in user.
  if (!auth.authenticated) return null;

  return (
    <section id="profile">
      <h1 className="h3 mb-3">Profile</h1>
      {auth.photo !== null && (
        // Identity providers' photo hosts may refuse a request that names another site as its referrer.
        <img
          src={auth.photo}
          alt={`Photo of ${auth.displayName}`}
          referrerPolicy="no-referrer"
          className="rounded-circle mb-3"
          width={96}
          height={96}
          id="profile-photo"
        />
      )}
      <dl className="row">
        <dt className="col-sm-3">Name</dt>
        <dd className="col-sm-9" id="profile-name">
          <IdentityField field="displayName" value={auth.displayName} />
        </dd>
        <dt className="col-sm-3">User ID</dt>
        <dd className="col-sm-9" id="profile-uid">
          {auth.uid}
        </dd>
        <dt className="col-sm-3">E-mail</dt>
        <dd className="col-sm-9" id="profile-email">
          <IdentityField field="email" value={auth.email} />
        </dd>
      </dl>
      <TimezoneSelect timezone={auth.timezone} />
      <CalendarSection />
      <NoticesSection />
      <PasswordSection />
      <SignInMethodsSection />
      <SessionsSection />
      <ApiTokensSection />
      <AppPasswordsSection />
      <EReadersSection />
      <KeptPagesSection />
      <DeleteAccountSection email={auth.email} />
    </section>
  );
}
