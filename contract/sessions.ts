import { z } from 'zod';

/** One sign-in of the user (`GET /api/users/me/sessions`): a browser or device that holds a refresh cookie. */
export const UserSession = z.object({
  id: z.string(),
  /** The User-Agent of its latest sign-in or refresh; null for sessions from before it was recorded. */
  userAgent: z.string().nullable(),
  address: z.string().nullable(),
  /** Its latest sign-in or refresh: an active page refreshes every 15 minutes. */
  lastUsedAt: z.iso.datetime({ offset: true }),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;

export const UserSessions = z.array(UserSession);

export const SessionParams = z.strictObject({ id: z.string().max(100) });

/** Reply of `DELETE /api/users/me/sessions`: how many other sessions were ended. */
export const EndedSessions = z.object({ ended: z.number().int() });
export type EndedSessions = z.infer<typeof EndedSessions>;
