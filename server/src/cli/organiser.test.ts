import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthReply } from '../../../contract/auth.ts';
import { createIdentitiesStore } from '../auth/oidc/identities.store.ts';
import { installationEnv, runOrganiserCli } from '../test/organiser-cli.ts';
import { buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

const PASSWORD = 'a long enough password';

// Each command is a process of its own, started as a person would start it: seconds each on a busy machine.
const COMMANDS_TIMEOUT = { timeout: 120_000 };

describe('the command line', COMMANDS_TIMEOUT, () => {
  it('answers a command line it does not understand with exit code 2 and the usage', async () => {
    for (const args of [[], ['frobnicate'], ['backup', 'a', 'b'], ['create-admin', '--email', 'a@example.org']]) {
      const result = await runOrganiserCli(args, { DATA_DIR: '/nonexistent/organiser' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage: npm run organiser -- COMMAND');
      expect(result.stderr).toContain('reset-password EMAIL');
      expect(result.stdout).toBe('');
    }
  });

  it('stops on a bad configuration as the server does, with exit code 1', async () => {
    const result = await runOrganiserCli(['list-users'], { DATA_DIR: '/tmp', PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT="eighty": expected a port number');
  });
});

describe.each(testDialects)('the account commands on %s', COMMANDS_TIMEOUT, (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;
  let env: Record<string, string>;
  const cli = (args: string[], options?: { stdin?: string }, extraEnv: Record<string, string> = {}) =>
    runOrganiserCli(args, { ...env, ...extraEnv }, options);
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const userCount = async () => (await t.storage.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = installationEnv(database);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('create-admin makes an administrator who signs in with the password read from standard input', async () => {
    const piped = await cli(['create-admin', '--email', 'Root@Example.org', '--name', 'Root', '--password-stdin'], { stdin: `${PASSWORD}\n` });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('Created the administrator root@example.org (Root).');
    expect(piped.stdout).not.toContain('Password');
    const signedIn = await login('root@example.org', PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(AuthReply.parse(signedIn.json()).user.admin).toBe(true);
  });

  it('create-admin generates a password and shows it once; a second administrator whatever sign-up says', async () => {
    const result = await cli(['create-admin', '--email', 'second@example.org', '--name', 'Second Admin'], {}, { ALLOW_SIGNUP: 'false' });
    expect(result.code, result.stderr).toBe(0);
    const password = /Password \(shown only now\): (\S+)/.exec(result.stdout)?.[1];
    expect(password).toHaveLength(24);
    const signedIn = await login('second@example.org', password!);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(AuthReply.parse(signedIn.json()).user.admin).toBe(true);
  });

  it('create-admin refuses an e-mail already taken, bad input and a common password, changing nothing', async () => {
    const before = await userCount();
    const cases: Array<[string[], string, RegExp]> = [
      [['--email', 'root@example.org', '--name', 'Again'], '', /already exists.*reset-password root@example.org/],
      [['--email', 'not an address', '--name', 'X'], '', /--email must be a valid e-mail address/],
      [['--email', 'x@example.org', '--name', '   '], '', /--name is required/],
      [['--email', 'x@example.org', '--name', 'X', '--password-stdin'], 'short\n', /at least 10 characters/],
      [['--email', 'x@example.org', '--name', 'X', '--password-stdin'], 'password123\n', /most common passwords/],
    ];
    for (const [args, stdin, message] of cases) {
      const result = await cli(['create-admin', ...args], { stdin });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await userCount()).toBe(before);
  });

  it('reset-password sets a new password and ends every session of the account', async () => {
    const user = await registerUser(t.app, { email: 'forgetful@example.org' });
    const result = await cli(['reset-password', 'Forgetful@example.org', '--password-stdin'], { stdin: 'a brand new passphrase\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Set a new password for forgetful@example.org; ended 1 session.');

    const refreshed = await t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: user.refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    expect((await login('forgetful@example.org', user.password)).statusCode).toBe(401);
    expect((await login('forgetful@example.org', 'a brand new passphrase')).statusCode).toBe(200);

    const generated = await cli(['reset-password', 'forgetful@example.org'], {});
    expect(generated.code, generated.stderr).toBe(0);
    const password = /Password \(shown only now\): (\S+)/.exec(generated.stdout)?.[1];
    expect((await login('forgetful@example.org', password!)).statusCode).toBe(200);
  });

  it('reset-password refuses an unknown account and a bad address', async () => {
    const unknown = await cli(['reset-password', 'nobody@example.org'], {});
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('organiser: there is no account with the e-mail nobody@example.org\n');
    const bad = await cli(['reset-password', 'nobody'], {});
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('EMAIL must be a valid e-mail address');
  });

  it('list-users shows every account: e-mail, name, admin, sign-in kinds, created', async () => {
    const member = await registerUser(t.app, { email: 'member@example.org', displayName: 'Member Person' });
    await createIdentitiesStore(t.storage.db).insert({
      issuer: 'https://id.example.org/realms/home',
      subject: 'member-subject',
      user_id: member.user.uid,
      created_at: Date.now(),
      last_sign_in_at: Date.now(),
    });
    const result = await cli(['list-users'], {}, {
      OIDC_ISSUER: 'https://id.example.org/realms/home',
      OIDC_CLIENT_ID: 'organiser',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_NAME: 'Keycloak',
      ADMIN_EMAILS: 'forgetful@example.org',
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^E-MAIL\s+NAME\s+ADMIN\s+SIGN-IN\s+CREATED$/);
    const row = (email: string) => lines.find((line) => line.startsWith(`${email} `))?.split(/\s{2,}/);
    expect(row('root@example.org')).toEqual(['root@example.org', 'Root', 'yes', 'password', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)]);
    expect(row('member@example.org')?.slice(0, 4)).toEqual(['member@example.org', 'Member Person', 'no', 'password, Keycloak']);
    expect(row('forgetful@example.org')?.[2]).toBe('yes');
    expect(lines).toHaveLength(1 + (await userCount()));
  });
});
