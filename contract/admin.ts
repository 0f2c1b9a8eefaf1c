import { z } from 'zod';
import { Email, Password } from './auth.ts';

/** One account as the administration page lists it (`GET /api/admin/users`). */
export const AdminUser = z.object({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  admin: z.boolean(),
  /** An administrator through `ADMIN_EMAILS`, which the page cannot change. */
  adminByConfig: z.boolean(),
  disabled: z.boolean(),
  /** A temporary password is set that its owner has not yet replaced. */
  passwordChangeRequired: z.boolean(),
  /** How the account signs in: `password`, and each linked provider by the name the login page gives it. */
  signIn: z.array(z.string()),
  createdAt: z.string(),
  /** The latest sign-in or token refresh; null when it has none left on record. */
  lastSeenAt: z.string().nullable(),
  bookmarks: z.number().int(),
  tasks: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUsers = z.array(AdminUser);
export type AdminUsers = z.infer<typeof AdminUsers>;

export const AdminUserParams = z.object({ id: z.string().min(1).max(100) });

/** `PUT /api/admin/users/{id}`: any of the three, at least one. */
export const UpdateUserBody = z
  .strictObject({
    admin: z.boolean().optional(),
    disabled: z.boolean().optional(),
    /** Replaces the password; its owner must choose another at next sign-in, and every session ends. */
    temporaryPassword: Password.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'give at least one of admin, disabled, temporaryPassword');
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const InvitationBody = z.strictObject({ email: Email });
export type InvitationBody = z.infer<typeof InvitationBody>;

/** The sign-up link of an invitation: mailed when SMTP is set (`mailed`), to be copied in any case. */
export const Invitation = z.object({
  url: z.string(),
  mailed: z.boolean(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof Invitation>;

/** An invitation not yet used and not expired, as the administration page lists it (`GET /api/admin/invitations`). */
export const PendingInvitation = z.object({
  /** Names it for `DELETE /api/admin/invitations/{id}`; the link's token itself is never kept. */
  id: z.string(),
  email: z.string(),
  /** The administrator who sent it; null once that account is deleted. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const PendingInvitations = z.array(PendingInvitation);
export type PendingInvitations = z.infer<typeof PendingInvitations>;

export const InvitationParams = z.object({ id: z.string().min(1).max(100) });
