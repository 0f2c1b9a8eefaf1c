import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 10;

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid e-mail address'));

/** The name an account shows, as typed at sign-up or changed on the profile. */
export const DisplayName = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');

/** A new password; the server also refuses the most common ones (a list too large for the client). */
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'must be at most 256 characters')
  .refine((password) => password.trim() !== '', 'must not be only spaces')
  // Control characters cannot be typed on every keyboard, and some forms and terminals drop them.
  .refine((password) => !/\p{Cc}/u.test(password), 'must not contain control characters');

/** Which sign-in methods this installation offers (`GET /auth/providers`). */
export const Providers = z.object({
  local: z.boolean(),
  /** Whether `POST /auth/register` is open. */
  signup: z.boolean(),
  /** True while no account exists: the login page offers to create the first (admin) account. */
  setup: z.boolean(),
  google: z.boolean(),
  /** The display name of a generic OpenID Connect provider, or null when none is configured. */
  oidc: z.string().nullable(),
  /** Whether "Forgot your password?" is offered: mail is set up (SMTP_URL) and the server knows its address. */
  passwordReset: z.boolean(),
});
export type Providers = z.infer<typeof Providers>;

export const RegisterBody = z.strictObject({
  email: Email,
  password: Password,
  displayName: DisplayName,
  /** The token of an administrator's invitation: it opens sign-up for its e-mail even when sign-up is closed. */
  invitation: z.string().min(1).max(100).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.strictObject({
  email: Email,
  password: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const AuthUser = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  admin: z.boolean(),
});
export type AuthUser = z.infer<typeof AuthUser>;

/** Reply of register, login and refresh; the refresh token travels in an HttpOnly cookie. */
export const AuthReply = z.object({
  idToken: z.string(),
  user: AuthUser,
  /**
   * The user signed in with a temporary password an administrator set: every call but the password
   * change (`PUT /api/users/me/password`) and the user record answers 403 until it is replaced.
   * The server always sends it; optional so that a reply of an older server still parses.
   */
  passwordChangeRequired: z.boolean().optional(),
});
export type AuthReply = z.infer<typeof AuthReply>;

/** Marks the messages the sign-in popup posts to its opener, among any others the page receives. */
export const SIGN_IN_RESULT_SOURCE = 'organiser-sign-in';

/**
 * What the provider sign-in popup posts to the window that opened it. It carries no token: on
 * success the refresh cookie is set, and the opener gets its bearer token from `POST /auth/refresh`.
 */
export const SignInResult = z.discriminatedUnion('ok', [
  z.object({ source: z.literal(SIGN_IN_RESULT_SOURCE), ok: z.literal(true) }),
  z.object({ source: z.literal(SIGN_IN_RESULT_SOURCE), ok: z.literal(false), message: z.string() }),
]);
export type SignInResult = z.infer<typeof SignInResult>;

/** The identity providers `GET /auth/oidc/{provider}/start` knows. */
export const IdentityProviderId = z.enum(['google', 'oidc']);
export type IdentityProviderId = z.infer<typeof IdentityProviderId>;

/** What the sign-up page of an invitation shows (`GET /auth/invitations/{token}`). */
export const InvitationInfo = z.object({ email: z.string() });
export type InvitationInfo = z.infer<typeof InvitationInfo>;

export const InvitationParams = z.object({ token: z.string().min(1).max(100) });

/** `POST /auth/password-reset`: the e-mail of an account whose password is forgotten. */
export const PasswordResetBody = z.strictObject({ email: Email });
export type PasswordResetBody = z.infer<typeof PasswordResetBody>;

/** The one answer to a reset request, whether or not the address has an account. */
export const PasswordResetAccepted = z.object({ message: z.string() });

/**
 * Asked with a new password (a reset or a change): end too every API token, app password and the
 * calendar address, which whoever knew the old password could have made. Sessions end either way.
 */
export const EndOtherCredentials = z.boolean({ error: 'must be true or false' }).optional();

/** What the reset and change forms offer beside the new password (not "calendar address", the label of the address itself). */
export const END_OTHER_CREDENTIALS_LABEL = 'Also end every API token, app password and the calendar subscription';

/** `POST /auth/password-reset/confirm`: the link's token and the new password. */
export const PasswordResetConfirmBody = z.strictObject({
  token: z.string().min(1, 'is required').max(100, 'must be at most 100 characters'),
  password: Password,
  endOtherCredentials: EndOtherCredentials,
});
export type PasswordResetConfirmBody = z.infer<typeof PasswordResetConfirmBody>;
