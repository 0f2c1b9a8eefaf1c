import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import webpush, { WebPushError } from 'web-push';
import type { PushNotice } from '../../../contract/notify.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { ChannelsStore, PushSubscriptionRow } from './channels.store.ts';
import type { DoneTokens } from './done-tokens.ts';
import { NTFY_CHANNEL, type NoticeMessage, pushChannel } from './notice-message.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** How long a push service keeps a notice for a device that is off: a day, then it is stale. */
const PUSH_TTL_SECONDS = 86_400;
const SEND_TIMEOUT_MS = 30_000;

export type NetworkGuard = {
  /** Whether the server may connect to an address (public ones; every one with PREVIEW_ALLOW_PRIVATE). */
  mayVisit(address: string): boolean;
  /** A DNS lookup that refuses names leading to addresses `mayVisit` refuses. */
  lookup: LookupFunction;
};

type Options = {
  channels: ChannelsStore;
  doneTokens: DoneTokens;
  vapid: VapidKeys;
  /** VAPID's `sub`: `vapidSubject()`. */
  subject: string;
  /** Where the links of a notice lead: PUBLIC_URL. */
  publicUrl: string;
  clock: Clock;
  log: Logger;
  guard: NetworkGuard;
  /** Certificate authorities trusted for push services besides the system's (the tests' own). */
  extraCa?: string;
};

/** One channel's failure, in words for the task's notice error. */
export class ChannelError extends Error {}

const hostOf = (url: string) => new URL(url).host;

/**
 * Who push services may contact about this server's pushes (VAPID's `sub`): its own https address,
 * else the address its mail comes from; push services refuse anything but https: and mailto:.
 */
export function vapidSubject(publicUrl: string, mailFrom: string): string {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:' && url.hostname !== 'localhost') return url.origin;
  return `mailto:${/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()}`;
}

function checkedAddress(url: string, guard: NetworkGuard): URL {
  const parsed = new URL(url);
  // An address written in the URL is connected to without a lookup, so it is checked here.
  const literal = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && !guard.mayVisit(literal)) throw new ChannelError(`${parsed.host} is a private or local address`);
  return parsed;
}

/** A header value of ntfy's: ASCII as it is, anything else as an RFC 2047 encoded word, which ntfy decodes. */
const headerText = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`);

/**
 * The channels of a notice besides mail (docs/behaviour/tasks-and-notices.md): every Web Push
 * device of the person notified, and their ntfy topic. Each carries the same single-use Done link.
 */
export function createNotifier({ channels, doneTokens, vapid, subject, publicUrl, clock, log, guard, extraCa }: Options) {
  const pushAgent = new https.Agent({ lookup: guard.lookup, ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}) });
  const doneUrlOf = (token: string) => `${publicUrl}/api/notify/done/${token}`;

  async function push(subscription: PushSubscriptionRow, notice: PushNotice): Promise<'sent' | 'gone'> {
    checkedAddress(subscription.endpoint, guard);
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(notice),
        {
          vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: PUSH_TTL_SECONDS,
          agent: pushAgent,
          timeout: SEND_TIMEOUT_MS,
        },
      );
      return 'sent';
    } catch (error) {
      // The browser unsubscribed, or the push service forgot it: no notice will reach it again.
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return 'gone';
      const status = error instanceof WebPushError ? `HTTP ${error.statusCode}` : error instanceof Error ? error.message : String(error);
      throw new ChannelError(`Web Push to ${hostOf(subscription.endpoint)} failed: ${status}`);
    }
  }

  function postToNtfy(topic: string, message: NoticeMessage, doneUrl: string | null): Promise<void> {
    const url = checkedAddress(topic, guard);
    const body = Buffer.from(message.body);
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      lookup: guard.lookup,
      timeout: SEND_TIMEOUT_MS,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': body.length,
        title: headerText(message.title),
        click: message.url,
        ...(doneUrl === null ? {} : { actions: `http, Done, ${doneUrl}, method=POST, clear=true` }),
      },
    });
    return new Promise((resolve, reject) => {
      request.on('timeout', () => request.destroy(new Error(`no answer within ${SEND_TIMEOUT_MS / 1000} seconds`)));
      request.on('error', (error) => reject(new ChannelError(`ntfy at ${url.host} failed: ${error.message}`)));
      request.on('response', (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new ChannelError(`ntfy at ${url.host} failed: HTTP ${status}`));
      });
      request.end(body);
    });
  }

  return {
    /**
     * Sends the notice to each of the person's channels not yet in `delivered`, adding those it
     * reaches; a push subscription its service says is gone is forgotten. Returns the failures.
     */
    async deliver(personId: string, message: NoticeMessage, delivered: Set<string>): Promise<string[]> {
      const subscriptions = (await channels.subscriptionsOf(personId)).filter((one) => !delivered.has(pushChannel(one.id)));
      const topic = delivered.has(NTFY_CHANNEL) ? null : await channels.ntfyTopicOf(personId);
      if (subscriptions.length === 0 && topic === null) return [];
      const doneUrl = doneUrlOf(
        await doneTokens.issue({ taskId: message.task_id, ownerId: message.owner_id, scheduleTime: message.schedule_time }, clock.now()),
      );
      const notice: PushNotice = { title: message.title, body: message.body, url: message.url, done_url: doneUrl, tag: `task-${message.task_id}` };
      const errors: string[] = [];
      const attempt = async (channel: string, send: () => Promise<unknown>) => {
        try {
          await send();
          delivered.add(channel);
        } catch (error) {
          if (!(error instanceof ChannelError)) throw error;
          log.warn({ channel, err: error }, 'notice not delivered on a channel');
          errors.push(error.message);
        }
      };
      for (const subscription of subscriptions) {
        await attempt(pushChannel(subscription.id), async () => {
          if ((await push(subscription, notice)) === 'gone') await channels.forgetSubscription(subscription.id);
        });
      }
      if (topic !== null) await attempt(NTFY_CHANNEL, () => postToNtfy(topic, message, doneUrl));
      return errors;
    },

    /** A test notice to the user's ntfy topic: no task, so no Done. */
    async testNtfy(topic: string): Promise<void> {
      await postToNtfy(
        topic,
        { task_id: 'test', owner_id: 'test', schedule_time: clock.now(), title: 'Organiser test notice', body: 'Notices of your tasks will look like this.', url: `${publicUrl}/tasks` },
        null,
      );
    },
  };
}
export type Notifier = ReturnType<typeof createNotifier>;
