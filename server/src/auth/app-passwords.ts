import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppPassword, NewAppPassword } from '../../../contract/app-passwords.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';
import type { Database } from '../storage/schema.ts';

/**
 * 26 characters of base32 (130 bits), shown in groups of four: typed on an e-reader's keyboard,
 * so lower-case letters and digits only, and hyphens, spaces and case are forgiven. With that many
 * bits a plain SHA-256 suffices (as for calendar tokens): no guess can succeed, and checking one
 * costs a hash lookup, not scrypt's 0.1 s, on every request an e-reader signs (every cover).
 */
const PASSWORD_CHARACTERS = 26;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** How often the last use is written: an e-reader signs every thumbnail of a page. */
const LAST_USED_PRECISION_MS = 60_000;

function freshPassword(): string {
  const bytes = randomBytes(PASSWORD_CHARACTERS);
  const characters = [...bytes].map((byte) => BASE32[byte & 31]);
  return characters.join('').replace(/.{4}(?!$)/g, '$&-');
}

/** The password as typed, without its grouping; null when it cannot be an app password. */
function normalised(password: string): string | null {
  const plain = password.replace(/[\s-]/g, '').toLowerCase();
  return plain.length === PASSWORD_CHARACTERS && /^[a-z2-7]+$/.test(plain) ? plain : null;
}

const hashOf = (plain: string) => createHash('sha256').update(plain).digest('hex');

const md5Of = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * KOReader's sync sends the MD5 of the password as typed (`x-auth-key`), so grouping and case can
 * no longer be forgiven after the fact: the hashes of the MD5s of the four ways it may be typed
 * (as shown or run together, in lower or upper case) are kept, and one of them must match. The
 * MD5 of 130 random bits is as unguessable as the password, and only a hash of it is stored.
 */
function syncKeysOf(shown: string): string {
  const plain = shown.replace(/-/g, '');
  const typings = [shown, plain, shown.toUpperCase(), plain.toUpperCase()];
  return JSON.stringify(typings.map((typed) => hashOf(md5Of(typed))));
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** Each user's named passwords for e-readers: made (shown once), listed with their last use, revoked at once. */
export function createAppPasswords(db: Kysely<Database>, clock: Clock) {
  return {
    async create(userId: string, name: string): Promise<NewAppPassword> {
      const password = freshPassword();
      const id = randomUUID();
      await db
        .insertInto('app_passwords')
        .values({
          id,
          user_id: userId,
          name,
          password_hash: hashOf(normalised(password)!),
          created_at: clock.now(),
          last_used_at: null,
          sync_keys: syncKeysOf(password),
        })
        .execute();
      return { id, name, password };
    },

    async list(userId: string): Promise<AppPassword[]> {
      const rows = await db
        .selectFrom('app_passwords')
        .select(['id', 'name', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, created_at: iso(row.created_at)!, last_used_at: iso(row.last_used_at) }));
    },

    /** Another user's id, or one already revoked, is a 404. */
    async revoke(userId: string, id: string): Promise<void> {
      const result = await db.deleteFrom('app_passwords').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('App password');
    },

    /** Whether `password` is one of the user's app passwords; a match records its use. */
    async matches(userId: string, password: string): Promise<boolean> {
      const plain = normalised(password);
      if (plain === null) return false;
      const row = await db
        .selectFrom('app_passwords')
        .select(['id', 'last_used_at'])
        .where('user_id', '=', userId)
        .where('password_hash', '=', hashOf(plain))
        .executeTakeFirst();
      if (!row) return false;
      const now = clock.now();
      if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_PRECISION_MS) {
        await db.updateTable('app_passwords').set({ last_used_at: now }).where('id', '=', row.id).execute();
      }
      return true;
    },

    /**
     * The account whose e-mail is `email` and whether `key` (KOReader's MD5 of what was typed, in
     * hex) is that of one of its app passwords, in one query; a match records its use. A user
     * holds a few app passwords: they are compared here. Undefined when no account has the e-mail.
     */
    async syncKeyOwner(email: string, key: string): Promise<{ userId: string; disabled: boolean; matches: boolean } | undefined> {
      const rows = await db
        .selectFrom('users')
        .leftJoin('app_passwords', (join) => join.onRef('app_passwords.user_id', '=', 'users.id').on('app_passwords.sync_keys', 'is not', null))
        .select(['users.id as user_id', 'users.disabled_at', 'app_passwords.id', 'app_passwords.last_used_at', 'app_passwords.sync_keys'])
        .where('users.email', '=', email)
        .execute();
      const [first] = rows;
      if (!first) return undefined;
      const wanted = /^[0-9a-f]{32}$/i.test(key) ? hashOf(key.toLowerCase()) : null;
      const row = rows.find((candidate) => wanted !== null && candidate.sync_keys !== null && (JSON.parse(candidate.sync_keys) as string[]).includes(wanted));
      const now = clock.now();
      if (row?.id && (row.last_used_at === null || now - row.last_used_at >= LAST_USED_PRECISION_MS)) {
        await db.updateTable('app_passwords').set({ last_used_at: now }).where('id', '=', row.id).execute();
      }
      return { userId: first.user_id, disabled: first.disabled_at !== null, matches: row !== undefined };
    },
  };
}
export type AppPasswords = ReturnType<typeof createAppPasswords>;
