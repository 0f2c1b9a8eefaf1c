import { Email } from '../../../../contract/auth.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { createUsersStore } from '../../users/users.store.ts';
import { type Command, CommandError } from '../command.ts';
import { newPassword, passwordOptions } from '../new-password.ts';
import { withServices } from '../with-services.ts';

export const resetPasswordCommand: Command = {
  name: 'reset-password',
  usage: 'reset-password EMAIL [--password-stdin]',
  summary: "set a new password for the account EMAIL and end all of its sessions",
  args: ['EMAIL'],
  options: passwordOptions,
  async run(input) {
    const email = Email.safeParse(input.args[0]);
    if (!email.success) throw new CommandError(`EMAIL ${email.error.issues[0]?.message ?? 'is not valid'}`);
    const { password, generated } = await newPassword(input);
    const passwordHash = await hashPassword(password);
    const ended = await withServices(input.config(), async ({ auth }, { db }) => {
      const user = await createUsersStore(db).findByEmail(email.data);
      if (!user) throw new CommandError(`there is no account with the e-mail ${email.data}`);
      return auth.setPassword(user.id, passwordHash);
    });
    input.print(`Set a new password for ${email.data}; ended ${ended} ${ended === 1 ? 'session' : 'sessions'}.`);
    if (generated) input.print(`Password (shown only now): ${password}`);
  },
};
