import { createIdentitiesStore } from '../../auth/oidc/identities.store.ts';
import { providerName } from '../../auth/oidc/provider-name.ts';
import { createUsersStore } from '../../users/users.store.ts';
import type { Command } from '../command.ts';
import { withServices } from '../with-services.ts';

/** Columns padded to their widest cell, two spaces apart, the last one left ragged. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}

const minute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const listUsersCommand: Command = {
  name: 'list-users',
  usage: 'list-users',
  summary: 'list the accounts: e-mail, name, admin, sign-in kinds, created',
  args: [],
  options: {},
  async run({ config, print }) {
    const settings = config();
    const rows = await withServices(settings, async ({ accounts }, { db }) => {
      const users = await createUsersStore(db).all();
      const providers = new Map<string, string[]>();
      for (const { user_id, issuer } of await createIdentitiesStore(db).issuers()) {
        providers.set(user_id, [...(providers.get(user_id) ?? []), providerName(issuer, settings)]);
      }
      return users.map((user) => [
        user.email,
        user.display_name,
        accounts.isAdmin(user) ? 'yes' : 'no',
        [...(user.password_hash ? ['password'] : []), ...(providers.get(user.id) ?? [])].join(', ') || 'none',
        minute(user.created_at),
      ]);
    });
    if (rows.length === 0) {
      print('No accounts yet: create-admin makes the first.');
      return;
    }
    for (const line of table([['E-MAIL', 'NAME', 'ADMIN', 'SIGN-IN', 'CREATED'], ...rows])) print(line);
  },
};
