import { escapeAttribute, escapeText } from 'entities';
import { SIGN_IN_RESULT_SOURCE, type SignInResult } from '../../../../contract/auth.ts';

export const SIGN_IN_RESULT_SCRIPT = '/auth/oidc/sign-in-result.js';

/** A popup signs in, or links a provider to the account signed in in the window that opened it. */
export type PopupPurpose = 'sign-in' | 'link';

const TEXTS: Record<PopupPurpose, (failure: string | null) => string> = {
  'sign-in': (failure) =>
    failure === null ? 'You are signed in. Go back to the window you signed in from.' : `Sign-in failed: ${failure}`,
  link: (failure) =>
    failure === null ? 'The account is linked. Go back to the window you linked it from.' : `Linking failed: ${failure}`,
};

/**
 * The page the sign-in popup ends on. The Content Security Policy allows no inline script, so
 * the result sits in a data attribute for the script file to post to the opener. Its text is
 * what a user sees if the page was opened without an opener (or scripts are off).
 */
export function signInResultPage(purpose: PopupPurpose, failure: string | null): string {
  const result: SignInResult =
    failure === null
      ? { source: SIGN_IN_RESULT_SOURCE, ok: true }
      : { source: SIGN_IN_RESULT_SOURCE, ok: false, message: failure };
  const text = TEXTS[purpose](failure);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Organiser sign-in</title>
<script src="${SIGN_IN_RESULT_SCRIPT}" defer></script>
</head>
<body data-sign-in-result="${escapeAttribute(JSON.stringify(result))}">
<p>${escapeText(text)}</p>
<p><a href="/login">Organiser</a></p>
</body>
</html>
`;
}
