import type { OutgoingMail } from './mailer.ts';

/** The mail of a forgotten password: the link, how long it works, and what to do if it was not asked for. */
export function passwordResetMail({ id, email, url, minutes }: { id: string; email: string; url: string; minutes: number }): OutgoingMail {
  return {
    id,
    recipients: [email],
    subject: 'Reset your Organiser password',
    body: [
      'Someone, probably you, asked to reset the password of your Organiser account.',
      '',
      `Choose a new password here (the link works once, for ${minutes} minutes):`,
      url,
      '',
      'If you did not ask for this, ignore this message: your password stays as it is.',
      '',
    ].join('\n'),
  };
}

/** The mail of an invitation: who invites, the sign-up link, and until when it works. */
export function invitationMail({ id, email, url, inviter, days }: { id: string; email: string; url: string; inviter: string; days: number }): OutgoingMail {
  return {
    id,
    recipients: [email],
    subject: `${inviter} invites you to Organiser`,
    body: [
      `${inviter} invites you to open an account on Organiser with this address.`,
      '',
      `Sign up here (the link works once, for ${days} days):`,
      url,
      '',
    ].join('\n'),
  };
}
