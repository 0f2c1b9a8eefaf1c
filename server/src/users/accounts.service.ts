import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import { createUsersStore, type UserRow } from './users.store.ts';

/** What a new account starts with; `passwordHash` is null for one that signs in through a provider. */
export type NewAccount = {
  email: string;
  displayName: string;
  photo: string | null;
  passwordHash: string | null;
};

const signupClosed = (refusal?: string) =>
  new AppError(403, ['Sign-up is closed on this installation', refusal].filter(Boolean).join(': '));

type Dependencies = { db: Kysely<Database>; clock: Clock; allowSignup: boolean; adminEmails: string[] };

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
  };
}

const emailTaken = () => new AppError(409, 'An account with this e-mail already exists');

/**
 * The one place that opens accounts and says who administers: local sign-up, provider sign-in,
 * `create-admin` (and later invitations) all come here, so the rules hold the same for each.
 */
export function createAccountsService({ db, clock, allowSignup, adminEmails }: Dependencies) {
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
    async create(account: NewAccount, { trx, refusal }: { trx?: Kysely<Database>; refusal?: string } = {}): Promise<UserRow> {
      const insert = async (q: Kysely<Database>) => {
        const users = createUsersStore(q);
        const existing = await users.count();
        if (existing > 0 && !allowSignup) {
          throw signupClosed(refusal);
        }
        if (await users.findByEmail(account.email)) throw emailTaken();
        const row = newUserRow(account, existing === 0, clock.now());
        await users.insert(row);
        return row;
      };
      return trx ? insert(trx) : db.transaction().execute(insert);
    },

    /**
     * An administrator's account, whether or not sign-up is open: for the person at the server's
     * command line (`create-admin`), who runs the installation anyway.
     */
    async createAdmin(account: NewAccount): Promise<UserRow> {
      return db.transaction().execute(async (trx) => {
        const users = createUsersStore(trx);
        if (await users.findByEmail(account.email)) throw emailTaken();
        const row = newUserRow(account, true, clock.now());
        await users.insert(row);
        return row;
      });
    },

    /** The first account, and every account whose e-mail is in ADMIN_EMAILS. */
    isAdmin(user: Pick<UserRow, 'is_admin' | 'email'>): boolean {
      return user.is_admin === 1 || adminEmails.includes(user.email);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
