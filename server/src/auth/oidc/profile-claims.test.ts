import { describe, expect, it } from 'vitest';
import { profileFromClaims } from './profile-claims.ts';

describe('a provider profile from ID token and userinfo claims', () => {
  it('keeps subject, a normalised e-mail, the verified flag, the name and an https photo', () => {
    expect(
      profileFromClaims({
        iss: 'https://accounts.google.com',
        sub: '1098',
        email: ' Ada@Example.ORG ',
        email_verified: true,
        name: 'Ada Lovelace',
        picture: 'https://lh3.googleusercontent.com/a/ada=s96-c',
      }),
    ).toEqual({
      issuer: 'https://accounts.google.com',
      subject: '1098',
      email: 'ada@example.org',
      emailVerified: true,
      displayName: 'Ada Lovelace',
      photo: 'https://lh3.googleusercontent.com/a/ada=s96-c',
    });
  });

  it('takes "true" as verified, as some providers send it, and anything else as not verified', () => {
    expect(profileFromClaims({ sub: 's', email: 'a@example.org', email_verified: 'true' }).emailVerified).toBe(true);
    expect(profileFromClaims({ sub: 's', email: 'a@example.org', email_verified: 'yes' }).emailVerified).toBe(false);
    expect(profileFromClaims({ sub: 's', email: 'a@example.org' }).emailVerified).toBe(false);
  });

  it('finds a name in given and family names, the username, or the e-mail, and cuts it to 100 characters', () => {
    expect(profileFromClaims({ sub: 's', given_name: 'Grace', family_name: 'Hopper' }).displayName).toBe('Grace Hopper');
    expect(profileFromClaims({ sub: 's', name: '  ', preferred_username: 'grace' }).displayName).toBe('grace');
    expect(profileFromClaims({ sub: 's', email: 'grace.h@example.org' }).displayName).toBe('grace.h');
    expect(profileFromClaims({ sub: 's', name: 'x'.repeat(150) }).displayName).toHaveLength(100);
  });

  it('drops what the page could not show or store: no e-mail, a photo not over https, an over-long one', () => {
    const profile = profileFromClaims({ sub: 's', email: 'not an address', picture: 'http://photos.example.org/a.png' });
    expect(profile).toMatchObject({ email: null, photo: null });
    expect(profileFromClaims({ sub: 's', picture: `https://example.org/${'a'.repeat(2048)}` }).photo).toBeNull();
    expect(profileFromClaims({ sub: 's', picture: 'javascript:alert(1)' }).photo).toBeNull();
  });
});
