import { z } from 'zod';
import { DisplayName, Email } from './auth.ts';
import { isIanaTimeZone } from './timezones.ts';

/** The user record of docs/behaviour/profile.md, served at `/api/users/me` and streamed by `/api/users/me/events`. */
export const UserRecord = z.object({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  timezone: z.string().nullable(),
});
export type UserRecord = z.infer<typeof UserRecord>;

/**
 * `PUT /api/users/me`: any of the timezone, the name and the e-mail, at least one. A new e-mail is
 * lower-cased as at sign-up and must be free.
 */
export const UpdateMeBody = z
  .strictObject({
    timezone: z.string().refine(isIanaTimeZone, 'must be an IANA time zone such as America/New_York').optional(),
    displayName: DisplayName.optional(),
    email: Email.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'give at least one of timezone, displayName, email');
export type UpdateMeBody = z.infer<typeof UpdateMeBody>;

/** The name of the Server-Sent Event that carries a user record. */
export const USER_EVENT = 'user';
