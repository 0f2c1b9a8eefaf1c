import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((value) => ['true', '1', 'yes'].includes(value));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Identity providers speak https; plain http is accepted on loopback only, for a provider on the same machine. */
const issuerUrl = z.url({ error: 'expected the issuer URL' }).refine((value) => {
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}, 'expected an https:// URL (http:// only on 127.0.0.1, ::1 or localhost)');

const emailList = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean))
  .pipe(z.array(z.email({ error: 'expected a comma-separated list of e-mail addresses' })));

/** Every variable the server reads; the README lists the same ones. */
const Environment = z.object({
  PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  PUBLIC_URL: z.url({ error: 'expected an absolute URL such as https://organiser.example.org' }).optional(),
  JWT_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
  SESSION_DAYS: z.coerce.number({ error: 'expected a number of days' }).int().min(1).max(400).default(30),
  ADMIN_EMAILS: emailList.default([]),
  BOOKS_API_KEY: z.string().min(16, 'expected at least 16 characters').optional(),
  MAX_UPLOAD_MB: z.coerce.number({ error: 'expected a number of megabytes' }).int().min(1).max(100_000).default(2048),
  MAX_CONNECTIONS: z.coerce.number({ error: 'expected a number of connections' }).int().min(10).max(1_000_000).default(1000),
  ALLOW_SIGNUP: flag.default(false),
  TRUST_PROXY: flag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: issuerUrl.default('https://accounts.google.com'),
  OIDC_ISSUER: issuerUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(40).default('OpenID Connect'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'expected smtp://user:password@host:587 or smtps://user:password@host:465')
    .optional(),
  MAIL_FROM: z.string().min(3).max(300).default('Organiser <organiser@localhost>'),
  CALIBRE_LIBRARY: z
    .string()
    .transform((value, context) => {
      const folder = path.resolve(value);
      if (fs.existsSync(path.join(folder, 'metadata.db'))) return folder;
      context.addIssue({
        code: 'custom',
        message: `expected the folder of a Calibre library, the one holding metadata.db (there is no ${path.join(folder, 'metadata.db')})`,
      });
      return z.NEVER;
    })
    .optional(),
  PREVIEW_ALLOW_PRIVATE: flag.default(false),
  ARCHIVE_QUOTA_MB: z.coerce.number({ error: 'expected a number of megabytes' }).int().min(1).max(10_000_000).default(500),
});

/** The typed configuration the server runs with; its type is this schema's output. */
const ConfigSchema = Environment.superRefine((e, context) => {
  if (e.OIDC_ISSUER && !(e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET)) {
    context.addIssue({ code: 'custom', message: 'OIDC_ISSUER is set: OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required too' });
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    context.addIssue({ code: 'custom', message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together' });
  }
}).transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  dataDir: path.resolve(e.DATA_DIR),
  databaseUrl: e.DATABASE_URL,
  publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
  jwtSecret: e.JWT_SECRET,
  sessionDays: e.SESSION_DAYS,
  adminEmails: e.ADMIN_EMAILS,
  booksApiKey: e.BOOKS_API_KEY,
  maxUploadMb: e.MAX_UPLOAD_MB,
  maxConnections: e.MAX_CONNECTIONS,
  allowSignup: e.ALLOW_SIGNUP,
  trustProxy: e.TRUST_PROXY,
  logLevel: e.LOG_LEVEL,
  google:
    e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { issuer: e.GOOGLE_ISSUER, clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
      : undefined,
  oidc:
    e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME }
      : undefined,
  /** Where mail goes; without it, it is kept in the outbox (`DATA_DIR/outbox`). */
  smtpUrl: e.SMTP_URL,
  mailFrom: e.MAIL_FROM,
  /** The Calibre library folder the catalogue follows (books/library/), absolute; none by default. */
  calibreLibrary: e.CALIBRE_LIBRARY,
  /** Let the page preview fetch pages on loopback and private addresses (tests, or a server only a home network reaches). */
  previewAllowPrivate: e.PREVIEW_ALLOW_PRIVATE,
  /** How many MB of kept pages each user may have (bookmarks/archive/). */
  archiveQuotaMb: e.ARCHIVE_QUOTA_MB,
}));

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment once; a bad value stops start with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      // Issues of one variable name it; those of several together say which in their message.
      if (issue.path.length === 0) return `  ${issue.message}`;
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
