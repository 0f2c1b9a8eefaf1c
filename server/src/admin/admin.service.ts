import type { Kysely } from 'kysely';
import type { AdminUser, Invitation, PendingInvitation, UpdateUserBody } from '../../../contract/admin.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { createIdentitiesStore } from '../auth/oidc/identities.store.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { invitationMail } from '../mail/account-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Database } from '../storage/schema.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import { createInvitationsStore, INVITATION_DAYS } from '../users/invitations.store.ts';
import { createUsersStore } from '../users/users.store.ts';
import { createAdminUsersQuery } from './admin-users.query.ts';

/** The path of the client's sign-up page for an invitation. */
export const INVITATION_PAGE = '/join';

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  accounts: AccountsService;
  auth: Pick<AuthService, 'replacePassword'>;
  /** Set when SMTP_URL is: without it invitations are shown to copy, not mailed. */
  mailer: Mailer | null;
  /** A provider as the login page names it, from its issuer. */
  providerName: (issuer: string) => string;
  log: Logger;
};

/** The administration page's calls: the accounts, invitations, and the changes an administrator makes. */
export function createAdminService({ db, clock, accounts, auth, mailer, providerName, log }: Dependencies) {
  const users = createUsersStore(db);
  const invitations = createInvitationsStore(db);
  const listQuery = createAdminUsersQuery(db);

  async function listAll(): Promise<AdminUser[]> {
    const [rows, identities] = await Promise.all([listQuery.all(), createIdentitiesStore(db).issuers()]);
    const providers = new Map<string, string[]>();
    for (const { user_id, issuer } of identities) providers.set(user_id, [...(providers.get(user_id) ?? []), providerName(issuer)]);
    return rows.map((row) => ({
      uid: row.id,
      displayName: row.display_name,
      email: row.email,
      admin: accounts.isAdmin(row),
      adminByConfig: accounts.isAdminByConfig(row),
      disabled: row.disabled_at !== null,
      passwordChangeRequired: row.password_change_required === 1,
      signIn: [...(row.password_hash ? ['password'] : []), ...(providers.get(row.id) ?? [])],
      createdAt: new Date(Number(row.created_at)).toISOString(),
      lastSeenAt: row.last_seen_at === null ? null : new Date(Number(row.last_seen_at)).toISOString(),
      bookmarks: Number(row.bookmarks),
      tasks: Number(row.tasks),
    }));
  }

  async function adminUser(userId: string): Promise<AdminUser> {
    const user = (await listAll()).find((row) => row.uid === userId);
    if (!user) throw notFound('User');
    return user;
  }

  return {
    listUsers: listAll,

    /** A sign-up link for one e-mail; mailed when mail is set up, to be copied in any case. */
    async invite(actorId: string, email: string, origin: string): Promise<Invitation> {
      if (await users.findByEmail(email)) throw new AppError(409, 'An account with this e-mail already exists');
      const { token, expiresAt } = await invitations.issue(email, actorId, clock.now());
      const url = `${origin}${INVITATION_PAGE}?token=${encodeURIComponent(token)}`;
      let mailed = false;
      if (mailer) {
        const inviter = (await users.findById(actorId))?.display_name ?? 'An administrator';
        try {
          await mailer.send(invitationMail({ id: `invitation.${expiresAt}.${email}`, email, url, inviter, days: INVITATION_DAYS }));
          mailed = true;
        } catch (error) {
          // The link still works: the administrator is shown it and told that it was not mailed.
          log.warn({ err: error }, 'an invitation mail was not sent');
        }
      }
      return { url, mailed, expiresAt: new Date(expiresAt).toISOString() };
    },

    /** The invitations not yet used nor expired: who, sent when and by whom, until when. */
    async pendingInvitations(): Promise<PendingInvitation[]> {
      const rows = await invitations.pending(clock.now());
      return rows.map((row) => ({
        id: row.token_hash,
        email: row.email,
        invitedBy: row.display_name,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        expiresAt: new Date(Number(row.expires_at)).toISOString(),
      }));
    },

    /** Takes back an invitation still good; an unknown, used or expired one is a 404. */
    async revokeInvitation(id: string): Promise<void> {
      if (!(await invitations.revoke(id, clock.now()))) throw notFound('Invitation');
    },

    /** Applies any of the three changes, in the order admin, disabled, password; the account as it is then. */
    async update(actorId: string, userId: string, change: UpdateUserBody): Promise<AdminUser> {
      if (actorId === userId && change.disabled === true) throw new AppError(409, 'You cannot disable your own account');
      if (!(await users.findById(userId))) throw notFound('User');
      if (change.admin !== undefined) await accounts.setAdmin(userId, change.admin);
      if (change.disabled !== undefined) await accounts.setDisabled(userId, change.disabled);
      if (change.temporaryPassword !== undefined) await auth.replacePassword(userId, change.temporaryPassword, { temporary: true });
      return adminUser(userId);
    },

    /** Deletes another account and all its data (one's own goes through the profile). */
    async remove(actorId: string, userId: string): Promise<void> {
      if (actorId === userId) throw new AppError(409, 'You cannot delete your own account here; use your profile');
      await accounts.deleteAccount(userId);
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
