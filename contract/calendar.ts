import { z } from 'zod';

/** A new calendar subscription: the feed's private address, shown this once (only its hash is kept). */
export const CalendarSubscription = z.object({ url: z.string() });
export type CalendarSubscription = z.infer<typeof CalendarSubscription>;

/** Whether the calendar subscription is on, and since when its current address was made. */
export const CalendarStatus = z.object({ enabled: z.boolean(), created_at: z.string().nullable() });
export type CalendarStatus = z.infer<typeof CalendarStatus>;

/** The feed's path: `/calendar/{token}.ics`, the token being 43 base64url characters. */
export const calendarFeedPath = (token: string) => `/calendar/${token}.ics`;
