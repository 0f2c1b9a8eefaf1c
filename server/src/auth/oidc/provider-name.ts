import type { Config } from '../../config.ts';

const sameIssuer = (a: string, b: string | undefined) => b !== undefined && a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** A provider as the login page names it; an issuer no longer configured by its address. */
export function providerName(issuer: string, config: Pick<Config, 'google' | 'oidc'>): string {
  if (sameIssuer(issuer, config.google?.issuer)) return 'Google';
  if (config.oidc && sameIssuer(issuer, config.oidc.issuer)) return config.oidc.name;
  return issuer;
}
