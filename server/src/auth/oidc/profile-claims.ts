import { Email } from '../../../../contract/auth.ts';

/** What a provider says about a person, reduced to what a user record keeps. */
export type ProviderProfile = {
  /** The issuer and subject name the person at the provider for good. */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string;
  photo: string | null;
};

const MAX_DISPLAY_NAME = 100;
const MAX_PHOTO_URL = 2048;

/** Claims of a verified ID token, with the userinfo endpoint's when the ID token leaves them out. */
export function profileFromClaims(claims: Record<string, unknown>): ProviderProfile {
  const parsedEmail = Email.safeParse(claims.email);
  const email = parsedEmail.success ? parsedEmail.data : null;
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email,
    // Some providers send the flag as the string "true".
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    displayName: displayName(claims, email),
    photo: httpsUrl(claims.picture),
  };
}

function displayName(claims: Record<string, unknown>, email: string | null): string {
  const given = [claims.given_name, claims.family_name].filter((part) => typeof part === 'string').join(' ');
  const candidates = [claims.name, given, claims.preferred_username, email?.split('@')[0]];
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return (found ?? 'New user').trim().slice(0, MAX_DISPLAY_NAME);
}

/** The page's Content Security Policy loads images over https only; any other photo would not show. */
function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_PHOTO_URL || !URL.canParse(value)) return null;
  return new URL(value).protocol === 'https:' ? value : null;
}
