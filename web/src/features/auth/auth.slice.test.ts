import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../../contract/users.ts';
import { authSlice, profileReceived, signedIn, signedOut, type AuthState } from './auth.slice.ts';

const reducer = authSlice.reducer;
const ada = { uid: 'u1', email: 'ada@example.org', displayName: 'Ada', admin: true };
const adaRecord: UserRecord = {
  uid: 'u1',
  email: 'ada@example.org',
  displayName: 'Ada L.',
  photo: 'https://example.org/ada.png',
  timezone: 'Europe/London',
};

function signedInAsAda(): AuthState {
  return reducer(undefined, signedIn({ idToken: 'token-1', user: ada }));
}

describe('the auth slice', () => {
  it('starts signed out with nothing but the flag', () => {
    expect(reducer(undefined, { type: 'start' })).toEqual({ authenticated: false });
  });

  it('keeps the user and the token on sign-in, the profile fields still unknown', () => {
    expect(signedInAsAda()).toEqual({ authenticated: true, ...ada, idToken: 'token-1', passwordChangeRequired: false, photo: null, timezone: null });
  });

  it('takes name, e-mail, photo and timezone from the profile record', () => {
    const state = reducer(signedInAsAda(), profileReceived(adaRecord));

    expect(state).toEqual({
      authenticated: true,
      uid: 'u1',
      email: 'ada@example.org',
      displayName: 'Ada L.',
      admin: true,
      idToken: 'token-1',
      passwordChangeRequired: false,
      photo: 'https://example.org/ada.png',
      timezone: 'Europe/London',
    });
  });

  it('ignores a profile record of another user, or one that arrives after sign-out', () => {
    const ada = signedInAsAda();
    expect(reducer(ada, profileReceived({ ...adaRecord, uid: 'u2' }))).toEqual(ada);
    expect(reducer(undefined, profileReceived(adaRecord))).toEqual({ authenticated: false });
  });

  it('keeps the profile fields when the same user refreshes the token', () => {
    const withProfile = reducer(signedInAsAda(), profileReceived(adaRecord));

    const refreshed = reducer(withProfile, signedIn({ idToken: 'token-2', user: ada }));

    expect(refreshed).toMatchObject({ idToken: 'token-2', photo: adaRecord.photo, timezone: 'Europe/London' });
  });

  it('drops the profile fields when another user signs in', () => {
    const withProfile = reducer(signedInAsAda(), profileReceived(adaRecord));
    const grace = { uid: 'u2', email: 'grace@example.org', displayName: 'Grace', admin: false };

    const next = reducer(withProfile, signedIn({ idToken: 'token-9', user: grace }));

    expect(next).toEqual({ authenticated: true, ...grace, idToken: 'token-9', passwordChangeRequired: false, photo: null, timezone: null });
  });

  it('forgets everything on sign-out', () => {
    expect(reducer(signedInAsAda(), signedOut())).toEqual({ authenticated: false });
  });

  it('holds a user signed in with a temporary password to its change until a reply without it', () => {
    const held = reducer(undefined, signedIn({ idToken: 'token-1', user: ada, passwordChangeRequired: true }));
    expect(held).toMatchObject({ authenticated: true, passwordChangeRequired: true });
    expect(reducer(held, signedIn({ idToken: 'token-2', user: ada, passwordChangeRequired: false }))).toMatchObject({ passwordChangeRequired: false });
  });
});
