import { z } from 'zod';
import { isIanaTimeZone } from './timezones.ts';

/** The user record of spec §3, served at `/api/users/me` and streamed by `/api/users/me/events`. */
export const UserRecord = z.object({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  timezone: z.string().nullable(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const UpdateMeBody = z.strictObject({
  timezone: z.string().refine(isIanaTimeZone, 'must be an IANA time zone such as America/New_York'),
});
export type UpdateMeBody = z.infer<typeof UpdateMeBody>;

/** The name of the Server-Sent Event that carries a user record. */
export const USER_EVENT = 'user';
