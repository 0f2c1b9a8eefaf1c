import type { Kysely } from 'kysely';
import type { SignInMethods } from '../../../../contract/sign-in-methods.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Database } from '../../storage/schema.ts';
import { isUniqueViolation } from '../../storage/unique-violation.ts';
import { createUsersStore } from '../../users/users.store.ts';
import { accountDisabled, passwordChangeFirst, sessionEnded, signInRequired } from '../authenticate.ts';
import type { DisabledAccounts } from '../disabled-accounts.ts';
import type { SessionRevocations } from '../session-revocations.ts';
import type { IdentityProvider } from './identity-providers.ts';
import { createIdentitiesStore, type IdentityRow } from './identities.store.ts';
import type { LinkIntent } from './link-intents.ts';
import { providerName, providerOf } from './provider-name.ts';
import type { ProviderProfile } from './profile-claims.ts';

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'google' | 'oidc'>;
  /** The providers a user may link now: those configured, when the server knows the address to come back to. */
  linkable: IdentityProvider[];
  revocations: Pick<SessionRevocations, 'isRevoked'>;
  disabled: Pick<DisabledAccounts, 'isDisabled'>;
  /** Lock the user's row while deciding an unlink (PostgreSQL); SQLite runs one transaction at a time anyway. */
  locking: boolean;
};

const iso = (time: number) => new Date(time).toISOString();

/**
 * The provider accounts a user signs in with (issue 14): listed on the profile, linked through the
 * sign-in popup, unlinked while another way in remains: a password, or another configured provider.
 */
export function createIdentitiesService({ db, clock, config, linkable, revocations, disabled, locking }: Dependencies) {
  /** An identity of a provider no longer configured is no way in, and unlinking it takes none away. */
  const isWayIn = (identity: IdentityRow) => providerOf(identity.issuer, config) !== null;

  function canUnlink(identity: IdentityRow, all: IdentityRow[], hasPassword: boolean): boolean {
    return !isWayIn(identity) || hasPassword || all.some((other) => other.id !== identity.id && isWayIn(other));
  }

  return {
    async methods(userId: string): Promise<SignInMethods> {
      const user = await createUsersStore(db).findById(userId);
      if (!user) throw notFound('User');
      const identities = await createIdentitiesStore(db).ofUser(userId);
      const hasPassword = user.password_hash !== null;
      return {
        password: hasPassword,
        identities: identities.map((identity) => ({
          id: identity.id,
          provider: providerOf(identity.issuer, config),
          name: providerName(identity.issuer, config),
          linkedAt: iso(identity.created_at),
          lastSignInAt: iso(identity.last_sign_in_at),
          canUnlink: canUnlink(identity, identities, hasPassword),
        })),
        providers: linkable.map(({ id, name }) => ({ id, name })),
      };
    },

    /** Another user's identity is a 404; the last way in is a 409, and stays linked. */
    async unlink(userId: string, id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // Two unlinks at once must not each count the other's identity as the way in that remains.
        const owner = trx.selectFrom('users').select('password_hash').where('id', '=', userId);
        const user = await (locking ? owner.forUpdate() : owner).executeTakeFirst();
        if (!user) throw notFound('User');
        const store = createIdentitiesStore(trx);
        const identities = await store.ofUser(userId);
        const identity = identities.find((candidate) => candidate.id === id);
        if (!identity) throw notFound('Linked provider');
        if (!canUnlink(identity, identities, user.password_hash !== null)) {
          const name = providerName(identity.issuer, config);
          throw new AppError(
            409,
            `Cannot unlink ${name}: it is the only way to sign in to this account; set a password or link another provider first`,
          );
        }
        await store.delete(userId, id);
      });
    },

    /**
     * Links the provider account the popup signed in with to the user who asked, if that user may
     * still make account calls. The account's name and e-mail stay as they are: this is no sign-in.
     */
    async link(intent: Pick<LinkIntent, 'userId' | 'sessionId'>, provider: Pick<IdentityProvider, 'name'>, profile: ProviderProfile) {
      const user = await createUsersStore(db).findById(intent.userId);
      if (!user) throw signInRequired();
      if (user.disabled_at !== null || disabled.isDisabled(user.id)) throw accountDisabled();
      if (intent.sessionId !== null && revocations.isRevoked(intent.sessionId)) throw sessionEnded();
      if (user.password_change_required === 1) throw passwordChangeFirst();

      const elsewhere = () =>
        new AppError(409, `This ${provider.name} account already signs in to another account here; unlink it there first`);
      const store = createIdentitiesStore(db);
      const linked = await store.find(profile.issuer, profile.subject);
      if (linked) {
        if (linked.user_id !== user.id) throw elsewhere();
        return;
      }
      const now = clock.now();
      try {
        await store.insert({ issuer: profile.issuer, subject: profile.subject, user_id: user.id, created_at: now, last_sign_in_at: now });
      } catch (error) {
        // Linked by another request between the check and the write.
        throw isUniqueViolation(error) ? elsewhere() : error;
      }
    },
  };
}
export type IdentitiesService = ReturnType<typeof createIdentitiesService>;
