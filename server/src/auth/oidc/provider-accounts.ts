import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import type { Database } from '../../storage/schema.ts';
import type { AccountsService } from '../../users/accounts.service.ts';
import { createUsersStore, type UserRow } from '../../users/users.store.ts';
import type { IdentityProvider } from './identity-providers.ts';
import { createIdentitiesStore } from './identities.store.ts';
import type { ProviderProfile } from './profile-claims.ts';

type Dependencies = { db: Kysely<Database>; clock: Clock; accounts: AccountsService };

/**
 * The user behind a provider account: the one linked to its issuer and subject; else the
 * account with its e-mail, linked now if the provider has verified that e-mail; else a new one.
 * Name, e-mail and photo follow the provider at every sign-in (docs/behaviour/accounts-and-sign-in.md).
 */
export function createProviderAccounts({ db, clock, accounts }: Dependencies) {
  return {
    signIn(provider: Pick<IdentityProvider, 'name'>, profile: ProviderProfile): Promise<UserRow> {
      return db.transaction().execute(async (trx) => {
        const users = createUsersStore(trx);
        const identities = createIdentitiesStore(trx);
        const now = clock.now();
        const linked = await identities.find(profile.issuer, profile.subject);
        if (linked) {
          await identities.touch(profile.issuer, profile.subject, now);
          const user = await users.findById(linked.user_id);
          if (!user) throw new Error(`identity ${profile.subject} of ${profile.issuer} links to no user`);
          return updateProfile(users, user, profile, now);
        }

        if (profile.email === null) {
          throw new AppError(400, `${provider.name} did not share your e-mail address; allow it to and try again`);
        }
        // An unverified address could be anyone's: it must neither open an account that uses it
        // nor make its holder an admin through ADMIN_EMAILS.
        if (!profile.emailVerified) {
          throw new AppError(
            403,
            `${provider.name} has not verified your e-mail address ${profile.email}; verify it there and try again`,
          );
        }
        const identity = { issuer: profile.issuer, subject: profile.subject, created_at: now, last_sign_in_at: now };
        const existing = await users.findByEmail(profile.email);
        if (existing) {
          await identities.insert({ ...identity, user_id: existing.id });
          return updateProfile(users, existing, profile, now);
        }

        const user = await accounts.create(
          { email: profile.email, displayName: profile.displayName, photo: profile.photo, passwordHash: null },
          { trx, refusal: `no account here uses ${profile.email}` },
        );
        await identities.insert({ ...identity, user_id: user.id });
        return user;
      });
    },
  };
}
export type ProviderAccounts = ReturnType<typeof createProviderAccounts>;

/**
 * The e-mail follows only when the provider has verified it and no other account uses it;
 * otherwise the account keeps the address it has.
 */
async function updateProfile(
  users: ReturnType<typeof createUsersStore>,
  user: UserRow,
  profile: ProviderProfile,
  now: number,
): Promise<UserRow> {
  let email = user.email;
  if (profile.email !== null && profile.emailVerified && profile.email !== user.email) {
    const holder = await users.findByEmail(profile.email);
    if (!holder) email = profile.email;
  }
  const updated = { display_name: profile.displayName, email, photo: profile.photo };
  await users.setProfile(user.id, updated, now);
  return { ...user, ...updated, updated_at: now };
}
