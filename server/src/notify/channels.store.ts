import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { PushSubscriptionBody } from '../../../contract/notify.ts';
import type { Database, PushSubscriptionsTable } from '../storage/schema.ts';

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/** Where a user's notices go besides mail: the browsers' push subscriptions and an ntfy topic. */
export function createChannelsStore(db: Kysely<Database>) {
  return {
    /** Adds a device, or renews the keys of one the user has already added (a browser re-subscribing). */
    async addSubscription(userId: string, body: PushSubscriptionBody, now: number): Promise<PushSubscriptionRow> {
      await db
        .insertInto('push_subscriptions')
        .values({ id: randomUUID(), user_id: userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'endpoint']).doUpdateSet({ p256dh: body.keys.p256dh, auth: body.keys.auth }))
        .execute();
      return db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('endpoint', '=', body.endpoint)
        .executeTakeFirstOrThrow();
    },

    subscriptionsOf(userId: string): Promise<PushSubscriptionRow[]> {
      return db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    },

    /** Whether the user had that device: another user's id removes nothing. */
    async removeSubscription(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A push service said the subscription is gone (404 or 410): it never takes a notice again. */
    async forgetSubscription(id: string): Promise<void> {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    },

    async ntfyTopicOf(userId: string): Promise<string | null> {
      const row = await db.selectFrom('ntfy_topics').select('url').where('user_id', '=', userId).executeTakeFirst();
      return row?.url ?? null;
    },

    async setNtfyTopic(userId: string, url: string | null, now: number): Promise<void> {
      if (url === null) {
        await db.deleteFrom('ntfy_topics').where('user_id', '=', userId).execute();
        return;
      }
      await db
        .insertInto('ntfy_topics')
        .values({ user_id: userId, url, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ url, updated_at: now }))
        .execute();
    },
  };
}
export type ChannelsStore = ReturnType<typeof createChannelsStore>;
