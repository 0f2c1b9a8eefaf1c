import { z } from 'zod';
import { Password } from './auth.ts';

/**
 * `PUT /api/users/me/password`: the current password, asked again, and the new one. An account
 * that signs in only through a provider has no current password and leaves it out to set its first.
 */
export const ChangePasswordBody = z.strictObject({
  current: z.string().min(1, 'is required').max(256, 'must be at most 256 characters').optional(),
  password: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
