import { z } from 'zod';

/**
 * What a push or ntfy notice shows, recorded with the notice in the outbox (`task_notices.push_message`)
 * when it is claimed: the task, the occurrence its Done completes, and the words the person reads.
 */
export const NoticeMessage = z.object({
  task_id: z.string(),
  owner_id: z.string(),
  schedule_time: z.number(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
});
export type NoticeMessage = z.infer<typeof NoticeMessage>;

/** The channels of `task_notices.delivered`. */
export const MAIL_CHANNEL = 'mail';
export const NTFY_CHANNEL = 'ntfy';
export const pushChannel = (subscriptionId: string) => `push:${subscriptionId}`;
