import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { z } from 'zod';
import type { AuthReply } from '../../../../contract/auth.ts';
import type { UserRecord } from '../../../../contract/users.ts';

const SignedOut = z.object({ authenticated: z.literal(false) });

const SignedIn = z.object({
  authenticated: z.literal(true),
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  admin: z.boolean(),
  /** The short-lived bearer token; the HttpOnly refresh cookie renews it. */
  idToken: z.string(),
  /** Signed in with a temporary password: the app shows nothing but its change until it is replaced. */
  passwordChangeRequired: z.boolean().default(false),
  /** From the profile record, which arrives after sign-in. */
  photo: z.string().nullable(),
  timezone: z.string().nullable(),
});

/** The signed-in user (docs/behaviour/accounts-and-sign-in.md); signed out, it is just `authenticated: false`. */
export const AuthState = z.discriminatedUnion('authenticated', [SignedOut, SignedIn]);
export type AuthState = z.infer<typeof AuthState>;

export const authSlice = createSlice({
  name: 'auth',
  initialState: (): AuthState => ({ authenticated: false }),
  reducers: {
    /** A sign-in, an account creation or a token refresh. */
    signedIn(state, action: PayloadAction<AuthReply>): AuthState {
      const { idToken, user, passwordChangeRequired = false } = action.payload;
      const known = state.authenticated && state.uid === user.uid ? state : null;
      return {
        authenticated: true,
        uid: user.uid,
        email: user.email,
        displayName: user.displayName,
        admin: user.admin,
        idToken,
        passwordChangeRequired,
        photo: known?.photo ?? null,
        timezone: known?.timezone ?? null,
      };
    },
    signedOut(): AuthState {
      return { authenticated: false };
    },
    profileReceived(state, action: PayloadAction<UserRecord>) {
      const record = action.payload;
      // A record still in flight for a user who has since signed out, or been replaced, is stale.
      if (!state.authenticated || state.uid !== record.uid) return;
      state.displayName = record.displayName;
      state.email = record.email;
      state.photo = record.photo;
      state.timezone = record.timezone;
    },
  },
});

export const { signedIn, signedOut, profileReceived } = authSlice.actions;

export const selectAuth = (state: { auth: AuthState }): AuthState => state.auth;
/** Only admins may upload the catalogue (docs/behaviour/books.md). */
export const selectIsAdmin = (state: { auth: AuthState }): boolean => state.auth.authenticated && state.auth.admin;
