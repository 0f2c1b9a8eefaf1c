import { z } from 'zod';

const base64url = (what: string, max: number) =>
  z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`).max(max);

/**
 * A browser's PushSubscription as its `toJSON()` gives it: the push service's address (https)
 * and the keys the payload is encrypted for (a P-256 public key and a 16-byte auth secret).
 */
export const PushSubscriptionBody = z.object({
  endpoint: z
    .url({ protocol: /^https$/, error: 'The endpoint must be an https address' })
    .max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url('keys.p256dh', 200), auth: base64url('keys.auth', 100) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** One of the user's devices that gets notices by Web Push. */
export const PushDevice = z.object({ id: z.string(), endpoint: z.string(), created_at: z.string() });
export type PushDevice = z.infer<typeof PushDevice>;
export const PushDevices = z.array(PushDevice);

/** The server's VAPID public key (base64url), the `applicationServerKey` of a subscription. */
export const VapidPublicKey = z.object({ public_key: z.string() });
export type VapidPublicKey = z.infer<typeof VapidPublicKey>;

/** The ntfy topic notices are posted to; null: none. http or https only. */
export const NtfyTopic = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'The ntfy topic must be an http or https address' })
    .max(2000)
    .nullable(),
});
export type NtfyTopic = z.infer<typeof NtfyTopic>;

/** What a Web Push notice carries, for the service worker to show (web/public/notice-worker.js). */
export const PushNotice = z.object({
  title: z.string(),
  body: z.string(),
  /** The task's page. */
  url: z.string(),
  /** POST here to complete the occurrence: single-use, expiring. */
  done_url: z.string(),
  tag: z.string(),
});
export type PushNotice = z.infer<typeof PushNotice>;
