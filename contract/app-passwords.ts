import { z } from 'zod';

/** `POST /api/users/me/app-passwords`: what the password is for, so the user knows which to revoke. */
export const AppPasswordBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
});
export type AppPasswordBody = z.infer<typeof AppPasswordBody>;

/** An app password as listed: never the password, which is shown only when made. */
export const AppPassword = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  /** The last request an e-reader signed with it; null before its first. */
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
});
export type AppPassword = z.infer<typeof AppPassword>;

export const AppPasswords = z.array(AppPassword);

/** A new app password, shown this once: only its hash is kept. */
export const NewAppPassword = z.object({ id: z.string(), name: z.string(), password: z.string() });
export type NewAppPassword = z.infer<typeof NewAppPassword>;

export const AppPasswordParams = z.strictObject({ id: z.string().max(100) });
