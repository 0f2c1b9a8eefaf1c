import { describe, expect, it } from 'vitest';
import { createServices } from './services.ts';
import { manualClock } from './test/manual-clock.ts';
import { createTestDatabase, openTestStorage, testConfig, testDialects } from './test/test-app.ts';

describe.each(testDialects)('the services without the HTTP app, on %s', (dialect) => {
  it('open the first account as administrator, sign it in and close, as a command line would', async () => {
    const database = await createTestDatabase(dialect);
    const storage = await openTestStorage(database);
    try {
      const services = await createServices({ config: testConfig(database), storage, clock: manualClock(), log: console });
      const account = { email: 'admin@example.org', displayName: 'Admin', photo: null, passwordHash: null };
      const admin = await services.accounts.create(account);
      expect(services.accounts.isAdmin(admin)).toBe(true);
      await expect(services.accounts.create({ ...account, email: 'second@example.org' })).rejects.toThrow(
        'Sign-up is closed on this installation',
      );
      const signedIn = await services.auth.signInAs(admin);
      expect(signedIn.reply.user).toEqual({ uid: admin.id, email: 'admin@example.org', displayName: 'Admin', admin: true });
      expect(await services.users.record(admin.id)).toMatchObject({ uid: admin.id, timezone: null });
      await services.close();
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
