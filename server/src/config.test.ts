import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('has working defaults: port 8080, ./data, SQLite', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      sessionDays: 30,
      allowSignup: false,
      adminEmails: [],
      google: undefined,
      oidc: undefined,
    });
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/srv/organiser',
      DATABASE_URL: 'postgres://u@db/organiser',
      ADMIN_EMAILS: ' Ann@Example.org, bob@example.org ',
      ALLOW_SIGNUP: 'yes',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/srv/organiser',
      databaseUrl: 'postgres://u@db/organiser',
      adminEmails: ['ann@example.org', 'bob@example.org'],
      allowSignup: true,
      google: { issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 'secret' },
    });
  });

  it('takes the Google issuer from GOOGLE_ISSUER, and the generic provider from OIDC_*', () => {
    const config = loadConfig({
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_ISSUER: 'http://127.0.0.1:4000',
      OIDC_ISSUER: 'https://id.example.org/realms/home',
      OIDC_CLIENT_ID: 'organiser',
      OIDC_CLIENT_SECRET: 'oidc secret',
      OIDC_NAME: 'Keycloak',
    });
    expect(config.google).toEqual({ issuer: 'http://127.0.0.1:4000', clientId: 'id', clientSecret: 'secret' });
    expect(config.oidc).toEqual({
      issuer: 'https://id.example.org/realms/home',
      clientId: 'organiser',
      clientSecret: 'oidc secret',
      name: 'Keycloak',
    });
  });

  it('refuses an issuer over plain http unless it is on this machine', () => {
    const withIssuer = (issuer: string) =>
      loadConfig({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'organiser', OIDC_CLIENT_SECRET: 'secret' });
    expect(() => withIssuer('http://id.example.org')).toThrow(/OIDC_ISSUER="http:\/\/id.example.org": expected an https:\/\/ URL/);
    expect(withIssuer('http://[::1]:8443').oidc?.issuer).toBe('http://[::1]:8443');
    expect(() => loadConfig({ GOOGLE_ISSUER: 'ftp://accounts.google.com' })).toThrow(/GOOGLE_ISSUER/);
  });

  it('stops with every bad variable and what it expects', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ALLOW_SIGNUP: 'maybe', ADMIN_EMAILS: 'a@b.c,nope' });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('PORT="eighty": expected a port number');
    expect(message).toContain('DATABASE_URL="mysql://x": expected a postgres:// or postgresql:// URL');
    expect(message).toContain('ALLOW_SIGNUP="maybe": expected true or false');
    expect(message).toContain('ADMIN_EMAILS="a@b.c,nope": expected a comma-separated list of e-mail addresses');
  });

  it('takes a Calibre library folder that holds metadata.db, and stops at one that does not', () => {
    const library = path.join(import.meta.dirname, 'books/fixtures/library');
    expect(loadConfig({ CALIBRE_LIBRARY: library }).calibreLibrary).toBe(library);
    expect(loadConfig({}).calibreLibrary).toBeUndefined();
    const empty = path.join(import.meta.dirname, 'books/fixtures/not-catalogues');
    expect(() => loadConfig({ CALIBRE_LIBRARY: empty })).toThrow(
      `CALIBRE_LIBRARY=${JSON.stringify(empty)}: expected the folder of a Calibre library, the one holding metadata.db (there is no ${empty}/metadata.db)`,
    );
  });

  it('refuses half a Google configuration', () => {
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
  });
});
