import type { UpdateMeBody, UserRecord } from '../../../contract/users.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';
import type { AccountsService } from './accounts.service.ts';
import type { UserEvents } from './user-events.ts';
import type { UserRow, UsersStore } from './users.store.ts';

export function toUserRecord(row: UserRow): UserRecord {
  return {
    uid: row.id,
    displayName: row.display_name,
    email: row.email,
    photo: row.photo,
    timezone: row.timezone,
  };
}

type Dependencies = {
  users: UsersStore;
  /** A change of name or e-mail follows the accounts' rules (a free e-mail, who administers). */
  accounts: Pick<AccountsService, 'changeIdentity'>;
  events: UserEvents;
  clock: Clock;
};

export function createUsersService({ users, accounts, events, clock }: Dependencies) {
  return {
    async record(uid: string): Promise<UserRecord> {
      const row = await users.findById(uid);
      if (!row) throw notFound('User');
      return toUserRecord(row);
    },

    /** The profile's changes: the timezone, and the name and e-mail through the accounts' rules. */
    async update(uid: string, { timezone, ...identity }: UpdateMeBody): Promise<UserRecord> {
      if (identity.displayName !== undefined || identity.email !== undefined) await accounts.changeIdentity(uid, identity);
      if (timezone !== undefined && !(await users.setTimezone(uid, timezone, clock.now()))) throw notFound('User');
      await events.publish(uid);
      return this.record(uid);
    },

    /**
     * Calls `send` with the record now and after every change, until the returned function is
     * called; `onGone` once the account is disabled or deleted.
     */
    watch(uid: string, send: (record: UserRecord) => void, onError: (error: unknown) => void, onGone: () => void): () => void {
      let latest = 0;
      const push = () => {
        // A slow read must not overwrite a newer one that finished first.
        const ticket = ++latest;
        users
          .findById(uid)
          .then((row) => {
            if (ticket !== latest) return;
            if (!row || row.disabled_at !== null) onGone();
            else send(toUserRecord(row));
          })
          .catch(onError);
      };
      const unsubscribe = events.subscribe(uid, push);
      push();
      return unsubscribe;
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
