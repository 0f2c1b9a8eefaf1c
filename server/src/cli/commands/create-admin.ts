import { RegisterBody } from '../../../../contract/auth.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { AppError } from '../../errors.ts';
import { type Command, CommandError, UsageError } from '../command.ts';
import { newPassword, passwordOptions } from '../new-password.ts';
import { withServices } from '../with-services.ts';

export const createAdminCommand: Command = {
  name: 'create-admin',
  usage: 'create-admin --email EMAIL --name NAME [--password-stdin]',
  summary: 'add an administrator (the password is read from standard input, or generated and shown once)',
  args: [],
  options: { email: { type: 'string' }, name: { type: 'string' }, ...passwordOptions },
  async run(input) {
    const { email, name } = input.options;
    if (typeof email !== 'string' || typeof name !== 'string') throw new UsageError('create-admin needs --email and --name');
    const { password, generated } = await newPassword(input);
    const parsed = RegisterBody.safeParse({ email, displayName: name, password });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const option = issue?.path[0] === 'displayName' ? '--name' : '--email';
      throw new CommandError(`${option} ${issue?.message ?? 'is not valid'}`);
    }
    const account = { email: parsed.data.email, displayName: parsed.data.displayName, photo: null, passwordHash: await hashPassword(password) };
    const user = await withServices(input.config(), async ({ accounts }) => {
      try {
        return await accounts.createAdmin(account);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 409) {
          throw new CommandError(`an account with the e-mail ${account.email} already exists (to let it in again: reset-password ${account.email})`);
        }
        throw error;
      }
    });
    input.print(`Created the administrator ${user.email} (${user.display_name}).`);
    if (generated) input.print(`Password (shown only now): ${password}`);
  },
};
