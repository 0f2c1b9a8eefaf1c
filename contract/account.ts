import { z } from 'zod';
import { EndOtherCredentials, Password } from './auth.ts';

/**
 * `PUT /api/users/me/password`: the current password, asked again, and the new one. An account
 * that signs in only through a provider has no current password and leaves it out to set its first.
 */
export const ChangePasswordBody = z.strictObject({
  current: z.string().min(1, 'is required').max(256, 'must be at most 256 characters').optional(),
  password: Password,
  endOtherCredentials: EndOtherCredentials,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/**
 * `DELETE /api/users/me`: the account's e-mail, typed again to confirm; compared without regard
 * to case or surrounding spaces.
 */
export const DeleteAccountBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'is required').max(254, 'must be at most 254 characters'),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** What the delete section shows when the typed e-mail is not the account's. */
export const DELETE_EMAIL_MISMATCH = 'email: type your account’s e-mail exactly to confirm; it does not match';
