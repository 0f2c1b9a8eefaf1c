import { z } from 'zod';
import { IdentityProviderId } from './auth.ts';

/** A provider account linked to the signed-in user: signing in with it opens this account. */
export const LinkedIdentity = z.object({
  id: z.string(),
  /** Which configured provider it belongs to; null when its issuer is no longer configured here. */
  provider: IdentityProviderId.nullable(),
  /** The provider as the login page names it, or its issuer's address when it is no longer configured. */
  name: z.string(),
  linkedAt: z.iso.datetime({ offset: true }),
  lastSignInAt: z.iso.datetime({ offset: true }),
  /** False when it is the last way in: no password and no other configured provider linked. */
  canUnlink: z.boolean(),
});
export type LinkedIdentity = z.infer<typeof LinkedIdentity>;

/** `GET /api/users/me/identities`: the ways into the account, and the providers it may link. */
export const SignInMethods = z.object({
  password: z.boolean(),
  identities: z.array(LinkedIdentity),
  /** The providers sign-in is on for, to link (one may be linked already). */
  providers: z.array(z.object({ id: IdentityProviderId, name: z.string() })),
});
export type SignInMethods = z.infer<typeof SignInMethods>;

/** `POST /api/users/me/identities`: the provider whose sign-in popup is to link to this account. */
export const LinkIdentityBody = z.strictObject({ provider: IdentityProviderId });
export type LinkIdentityBody = z.infer<typeof LinkIdentityBody>;

export const IdentityParams = z.strictObject({ id: z.string().max(100) });
