import type { Logger } from '../logger.ts';
import type { Clock } from '../clock.ts';
import type { Mailer } from '../mail/mailer.ts';
import { MAIL_CHANNEL, NoticeMessage } from '../notify/notice-message.ts';
import type { Notifier } from '../notify/notifier.ts';
import { isInCalendar } from './local-calendar.ts';
import { turnMemberOf } from './lists.turn.ts';
import { composeNotice, composePushMessage, noticeKey, personToNotify } from './notice-mail.ts';
import { repeatNotice } from './notice-times.ts';
import type { Claim, DueTask, NoticeRow, NoticesStore, SendOutcome } from './notices.store.ts';
import { noticeRulesOf } from './task-record.ts';

const CLAIM_BATCH = 100;
const SEND_BATCH = 100;
/** Sends at once; on PostgreSQL each holds a pooled connection (of 10) while it sends. */
const SEND_CONCURRENCY = 6;
/** Another instance may add work this one is not told of; it looks at least this often. */
const MAX_SLEEP_MS = 60_000;
/** Work due now that another instance holds (or a failing database) is looked at again after this. */
const BUSY_RETRY_MS = 1_000;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 60 * 60_000;
const MAX_SEND_ATTEMPTS = 12;

type Options = {
  notices: NoticesStore;
  mailer: Mailer;
  /** Web Push and ntfy, to the person `personToNotify` names. */
  notifier: Notifier;
  clock: Clock;
  publicUrl: string;
  log: Logger;
  /** Told of each run as it starts, with a promise of its end (the tests wait for runs with it). */
  onRun?: (run: Promise<void>) => void;
};

/** Backoff: 1, 2, 4 … minutes, at most an hour; null once the attempts run out. */
function retryDelay(attempts: number): number | null {
  if (attempts >= MAX_SEND_ATTEMPTS) return null;
  return Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);
}

/**
 * Sends every notice when it falls due (docs/behaviour/tasks-and-notices.md). It sleeps until the earliest due notice or
 * retry — asking the clock to wake it — and each run records due notices under their keys, then
 * sends what is recorded and unsent. Whatever a crash interrupts is still recorded, and goes out
 * at the next start.
 */
export function createNoticeScheduler({ notices, mailer, notifier, clock, publicUrl, log, onRun }: Options) {
  let cancelWake: (() => void) | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  const decide =
    (now: number) =>
    (task: DueTask): Claim => {
      const zone = task.owner_zone ?? 'UTC';
      const noticeTime = task.next_notice_time ?? now;
      if (!isInCalendar(task.schedule_time, zone) || !isInCalendar(noticeTime, zone)) {
        // Stored before dates were bounded: there is no due time to tell in the owner's zone and no
        // next notice to compute, so its notices stop (docs/behaviour/bad-input-and-limits.md).
        log.warn({ task: task.id }, 'task notices stopped: its times lie beyond the calendar');
        return { notice: null, nextNoticeTime: null };
      }
      const mail = composeNotice(task, { email: task.owner_email, zone }, publicUrl, turnMemberOf(task)?.email ?? null);
      return {
        notice: {
          id: noticeKey(task.id, task.schedule_time, noticeTime),
          task_id: task.id,
          recipients: JSON.stringify(mail.recipients),
          subject: mail.subject,
          body: mail.body,
          due_at: noticeTime,
          person_id: personToNotify(task),
          push_message: JSON.stringify(composePushMessage(task, zone, publicUrl)),
        },
        nextNoticeTime: repeatNotice(noticeTime, now, noticeRulesOf(task, zone)),
      };
    };

  /** Each channel the notice has not reached yet: a failure of one does not hold back the others. */
  async function sendOnChannels(notice: NoticeRow, delivered: Set<string>): Promise<string[]> {
    const errors: string[] = [];
    if (!delivered.has(MAIL_CHANNEL)) {
      try {
        await mailer.send({ id: notice.id, recipients: JSON.parse(notice.recipients) as string[], subject: notice.subject, body: notice.body });
        delivered.add(MAIL_CHANNEL);
      } catch (error) {
        log.warn({ err: error, notice: notice.id }, 'notice mail not sent');
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
    // Notices recorded before there were other channels have no person and go by mail alone.
    if (notice.person_id !== null && notice.push_message !== null) {
      errors.push(...(await notifier.deliver(notice.person_id, NoticeMessage.parse(JSON.parse(notice.push_message)), delivered)));
    }
    return errors;
  }

  async function send(notice: NoticeRow): Promise<SendOutcome> {
    const delivered = new Set(JSON.parse(notice.delivered) as string[]);
    let errors: string[];
    try {
      errors = await sendOnChannels(notice, delivered);
    } catch (error) {
      errors = [error instanceof Error ? error.message : String(error)];
    }
    if (errors.length === 0) return { sent: true, at: clock.now(), delivered: [...delivered] };
    const attempts = notice.attempts + 1;
    const delay = retryDelay(attempts);
    const when = new Date(notice.due_at).toISOString();
    log.warn({ notice: notice.id, attempts }, 'notice not sent');
    return {
      sent: false,
      error: `Notice of ${when} not sent (attempt ${attempts}${delay === null ? ', given up' : ''}): ${errors.join('; ')}`.slice(0, 1000),
      retryAt: delay === null ? null : clock.now() + delay,
      delivered: [...delivered],
    };
  }

  async function runOnce(): Promise<number> {
    const now = clock.now();
    while ((await notices.claimDue(now, CLAIM_BATCH, decide(now))) === CLAIM_BATCH);
    // Until a pass takes nothing: what remains due is then held by another instance, or there is none.
    while ((await notices.deliverDue(now, SEND_BATCH, SEND_CONCURRENCY, send)) > 0);
    const next = await notices.nextWake();
    const latest = now + MAX_SLEEP_MS;
    if (next === null) return latest;
    return next <= now ? now + BUSY_RETRY_MS : Math.min(next, latest);
  }

  function sleepUntil(at: number) {
    cancelWake?.();
    cancelWake = clock.wakeAt(at, kick);
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .catch((error: unknown) => {
        log.error({ err: error }, 'notice scheduler run failed');
        return clock.now() + BUSY_RETRY_MS;
      })
      .then((wakeAt) => {
        running = undefined;
        if (stopped) return;
        if (again) {
          again = false;
          kick();
        } else {
          sleepUntil(wakeAt);
        }
      });
    onRun?.(running);
  }

  return {
    start() {
      stopped = false;
      kick();
    },
    /** Something changed that may move a notice: look again now. */
    poke: kick,
    async stop(): Promise<void> {
      stopped = true;
      cancelWake?.();
      await running;
      mailer.close();
    },
  };
}
export type NoticeScheduler = ReturnType<typeof createNoticeScheduler>;
