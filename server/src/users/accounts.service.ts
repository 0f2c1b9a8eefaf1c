import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DELETE_EMAIL_MISMATCH } from '../../../contract/account.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import { isUniqueViolation } from '../storage/unique-violation.ts';
import { createInvitationsStore } from './invitations.store.ts';
import type { UserEvents } from './user-events.ts';
import { createUsersStore, type UserRow } from './users.store.ts';

/** What a new account starts with; `passwordHash` is null for one that signs in through a provider. */
export type NewAccount = {
  email: string;
  displayName: string;
  photo: string | null;
  passwordHash: string | null;
};

/** How an account changed, as every credential check hears it (auth/disabled-accounts.ts): `enabled` lets it in again. */
export type AccountChange = 'disabled' | 'enabled' | 'deleted';

const signupClosed = (refusal?: string) =>
  new AppError(403, ['Sign-up is closed on this installation', refusal].filter(Boolean).join(': '));

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  allowSignup: boolean;
  adminEmails: string[];
  /**
   * Ending an account's sign-ins, and refusing its every credential, at once on every instance.
   * Sessions are auth's, which builds on accounts: services.ts hands in its parts, described here.
   */
  endSessionsOf: (q: Kysely<Database>, userId: string) => Promise<string[]>;
  revocations: { announce(sessionIds: string[]): Promise<void> };
  disabled: { announce(userId: string, change: AccountChange): Promise<void> };
  /** Tells the account's open pages (their event stream) that it changed. */
  events: Pick<UserEvents, 'publish'>;
  /** A deleted account's bookmarks leave the search index too (SQLite's word index has no foreign key). */
  bookmarkIndex: { remove(ownerId: string, ids: number[]): Promise<void> };
  /**
   * What a feature above does before a deleted account's rows go with it: household lists tell the
   * other people's CalDAV clients of the account's tasks (tasks/lists.store.ts, `forgetAccount`).
   */
  beforeDelete: (userId: string) => Promise<void>;
};

/** Bookmarks taken out of the index per transaction when an account is deleted. */
const INDEX_REMOVAL_BATCH = 500;

const invitationNotGood = () =>
  new AppError(400, 'invitation: this invitation has been used or has expired; ask for a new one');

/** The account's row; `admin` when it administers whatever its place. */
function newUserRow(account: NewAccount, admin: boolean, now: number): UserRow {
  return {
    id: randomUUID(),
    email: account.email,
    display_name: account.displayName,
    photo: account.photo,
    password_hash: account.passwordHash,
    timezone: null,
    is_admin: admin ? 1 : 0,
    created_at: now,
    updated_at: now,
    disabled_at: null,
    password_change_required: 0,
  };
}

const emailTaken = () => new AppError(409, 'An account with this e-mail already exists');

/** The e-mail checked free and then taken by another request before this one wrote it: the same 409. */
async function refuseTakenEmail<T>(writing: Promise<T>): Promise<T> {
  try {
    return await writing;
  } catch (error) {
    throw isUniqueViolation(error) ? emailTaken() : error;
  }
}

/**
 * The one place that opens accounts and says who administers: local sign-up, provider sign-in,
 * `create-admin` (and later invitations) all come here, so the rules hold the same for each.
 */
export function createAccountsService({ db, clock, allowSignup, adminEmails, endSessionsOf, revocations, disabled, events, bookmarkIndex, beforeDelete }: Dependencies) {
  const isAdmin = (user: Pick<UserRow, 'is_admin' | 'email'>) => user.is_admin === 1 || adminEmails.includes(user.email);

  /** Refuses to take the last administrator who can sign in away, whatever the change. */
  async function assertAnotherAdmin(q: Kysely<Database>, user: UserRow, change: string): Promise<void> {
    if (!isAdmin(user) || user.disabled_at !== null) return;
    const others = await q
      .selectFrom('users')
      .select(['is_admin', 'email'])
      .where('id', '!=', user.id)
      .where('disabled_at', 'is', null)
      .execute();
    if (!others.some(isAdmin)) {
      throw new AppError(409, `Cannot ${change} the last administrator; make another account administrator first`);
    }
  }

  async function findUser(q: Kysely<Database>, userId: string): Promise<UserRow> {
    const user = await createUsersStore(q).findById(userId);
    if (!user) throw notFound('User');
    return user;
  }

  return {
    /** Sign-up is open while no account exists (the first becomes admin), later only with ALLOW_SIGNUP. */
    async signupState(): Promise<{ signup: boolean; setup: boolean }> {
      const setup = (await createUsersStore(db).count()) === 0;
      return { signup: setup || allowSignup, setup };
    },

    /** Refuses at once when sign-up is closed, before a registration costs anything (a password hash above all). */
    async assertSignupOpen(): Promise<void> {
      if (!(await this.signupState()).signup) throw signupClosed();
    },

    /**
     * Opens an account if sign-up is open, in `trx` when the caller writes more in the same
     * transaction (a provider sign-in links its identity), else in a transaction of its own.
     * `refusal` says, after the refusal, what the caller was asked for.
     */
    async create(
      account: NewAccount,
      { trx, refusal, invitation }: { trx?: Kysely<Database>; refusal?: string; invitation?: string } = {},
    ): Promise<UserRow> {
      const insert = async (q: Kysely<Database>) => {
        const users = createUsersStore(q);
        const existing = await users.count();
        if (invitation !== undefined) await this.useInvitation(q, invitation, account.email);
        else if (existing > 0 && !allowSignup) throw signupClosed(refusal);
        if (await users.findByEmail(account.email)) throw emailTaken();
        const row = newUserRow(account, existing === 0, clock.now());
        await users.insert(row);
        return row;
      };
      return refuseTakenEmail(trx ? insert(trx) : db.transaction().execute(insert));
    },

    /**
     * An administrator's account, whether or not sign-up is open: for the person at the server's
     * command line (`create-admin`), who runs the installation anyway.
     */
    async createAdmin(account: NewAccount): Promise<UserRow> {
      return refuseTakenEmail(db.transaction().execute(async (trx) => {
        const users = createUsersStore(trx);
        if (await users.findByEmail(account.email)) throw emailTaken();
        const row = newUserRow(account, true, clock.now());
        await users.insert(row);
        return row;
      }));
    },

    /** The e-mail of an invitation still good; null for any other token. */
    invitedEmail: (token: string) => createInvitationsStore(db).emailOf(token, clock.now()),

    /** An invitation still good, for the e-mail it names: marked used in the account's own transaction. */
    async useInvitation(q: Kysely<Database>, token: string, email: string): Promise<void> {
      const invitations = createInvitationsStore(q);
      const invited = await invitations.emailOf(token, clock.now());
      if (invited === null) throw invitationNotGood();
      if (invited !== email) throw new AppError(400, `email: this invitation is for ${invited}`);
      if (!(await invitations.use(token, clock.now()))) throw invitationNotGood();
    },

    /** The first account, and every account whose e-mail is in ADMIN_EMAILS. */
    isAdmin,

    /** Whether the account administers now: it is there, not disabled, and an administrator. */
    async administers(userId: string): Promise<boolean> {
      const user = await createUsersStore(db).findById(userId);
      return user !== undefined && user.disabled_at === null && isAdmin(user);
    },

    /** Whether the account administers through ADMIN_EMAILS, which only the configuration changes. */
    isAdminByConfig: (user: Pick<UserRow, 'email'>) => adminEmails.includes(user.email),

    /** Makes the account an administrator or not; never the last one who can sign in. */
    async setAdmin(userId: string, admin: boolean): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await findUser(trx, userId);
        if (!admin && adminEmails.includes(user.email)) {
          throw new AppError(409, `${user.email} is an administrator through ADMIN_EMAILS; remove it there`);
        }
        if (!admin) await assertAnotherAdmin(trx, user, 'unmake');
        await trx.updateTable('users').set({ is_admin: admin ? 1 : 0, updated_at: clock.now() }).where('id', '=', userId).execute();
      });
      await events.publish(userId);
    },

    /**
     * Disables the account, ending its sessions and refusing its every credential at once on every
     * instance, or lets it sign in again (its old sessions stay ended).
     */
    async setDisabled(userId: string, disable: boolean): Promise<void> {
      const ended = await db.transaction().execute(async (trx) => {
        const user = await findUser(trx, userId);
        if (disable) await assertAnotherAdmin(trx, user, 'disable');
        const disabledAt = disable ? (user.disabled_at ?? clock.now()) : null;
        await trx.updateTable('users').set({ disabled_at: disabledAt, updated_at: clock.now() }).where('id', '=', userId).execute();
        return disable ? endSessionsOf(trx, userId) : [];
      });
      await revocations.announce(ended);
      await disabled.announce(userId, disable ? 'disabled' : 'enabled');
      await events.publish(userId);
    },

    /**
     * Deletes the account and everything it owns — bookmarks and their index entries, tasks with
     * their notices and completions, sessions, provider identities, calendar token — and stops its
     * every credential at once on every instance. The administration's delete and the profile's
     * "delete my account" both come here; the last administrator who can sign in is never deleted.
     */
    async deleteAccount(userId: string): Promise<void> {
      // Disabled first: nothing new is written for the account while its bookmarks leave the index.
      const ended = await db.transaction().execute(async (trx) => {
        const user = await findUser(trx, userId);
        await assertAnotherAdmin(trx, user, 'delete');
        await trx.updateTable('users').set({ disabled_at: user.disabled_at ?? clock.now() }).where('id', '=', userId).execute();
        return endSessionsOf(trx, userId);
      });
      await revocations.announce(ended);
      await disabled.announce(userId, 'disabled');
      for (;;) {
        const rows = await db.selectFrom('bookmarks').select('id').where('owner_id', '=', userId).limit(INDEX_REMOVAL_BATCH).execute();
        if (rows.length === 0) break;
        const ids = rows.map((row) => row.id);
        await bookmarkIndex.remove(userId, ids);
        await db.deleteFrom('bookmarks').where('owner_id', '=', userId).where('id', 'in', ids).execute();
      }
      await beforeDelete(userId);
      await db.transaction().execute(async (trx) => {
        // Every other table of the account's goes with its row (ON DELETE CASCADE); the counts do not refer to it.
        await trx.deleteFrom('bookmark_facets').where('owner_id', '=', userId).execute();
        await trx.deleteFrom('users').where('id', '=', userId).execute();
      });
      await disabled.announce(userId, 'deleted');
      await events.publish(userId);
    },

    /**
     * The profile's change of name or e-mail. A new e-mail must be free, and one of ADMIN_EMAILS is
     * refused to an account that does not administer already (there is no mail to prove it is theirs,
     * and it would make them an administrator). An administrator through ADMIN_EMAILS who moves to
     * another address stays one. Reset links mailed to the old address stop working.
     */
    async changeIdentity(userId: string, change: { displayName?: string | undefined; email?: string | undefined }): Promise<void> {
      await refuseTakenEmail(db.transaction().execute(async (trx) => {
        const user = await findUser(trx, userId);
        const email = change.email ?? user.email;
        const now = clock.now();
        if (email !== user.email) {
          if (await createUsersStore(trx).findByEmail(email)) throw emailTaken();
          if (!isAdmin(user) && adminEmails.includes(email)) {
            throw new AppError(403, `email: ${email} is kept for an administrator of this installation (ADMIN_EMAILS)`);
          }
          await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
        }
        // Moving away from an address of ADMIN_EMAILS would end the role that address gave.
        const isAdminNow = email !== user.email && isAdmin(user) ? 1 : user.is_admin;
        await trx
          .updateTable('users')
          .set({ display_name: change.displayName ?? user.display_name, email, is_admin: isAdminNow, updated_at: now })
          .where('id', '=', userId)
          .execute();
      }));
    },

    /** The profile's "delete my account": only once its owner has typed the account's e-mail again. */
    async deleteOwnAccount(userId: string, typedEmail: string): Promise<void> {
      const user = await findUser(db, userId);
      if (typedEmail !== user.email) throw new AppError(400, DELETE_EMAIL_MISMATCH);
      await this.deleteAccount(userId);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
