import type { IdentityProviderId } from '../../../../contract/auth.ts';
import type { Config } from '../../config.ts';

const sameIssuer = (a: string, b: string | undefined) => b !== undefined && a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** The configured provider an issuer belongs to; null when it is no longer configured. */
export function providerOf(issuer: string, config: Pick<Config, 'google' | 'oidc'>): IdentityProviderId | null {
  if (sameIssuer(issuer, config.google?.issuer)) return 'google';
  if (sameIssuer(issuer, config.oidc?.issuer)) return 'oidc';
  return null;
}

/** A provider as the login page names it; an issuer no longer configured by its address. */
export function providerName(issuer: string, config: Pick<Config, 'google' | 'oidc'>): string {
  const provider = providerOf(issuer, config);
  if (provider === 'google') return 'Google';
  if (provider === 'oidc' && config.oidc) return config.oidc.name;
  return issuer;
}
