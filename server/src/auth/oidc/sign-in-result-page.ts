import { escapeAttribute, escapeText } from 'entities';
import { SIGN_IN_RESULT_SOURCE, type SignInResult } from '../../../../contract/auth.ts';

export const SIGN_IN_RESULT_SCRIPT = '/auth/oidc/sign-in-result.js';

/**
 * The page the sign-in popup ends on. The Content Security Policy allows no inline script, so
 * the result sits in a data attribute for the script file to post to the opener. Its text is
 * what a user sees if the page was opened without an opener (or scripts are off).
 */
export function signInResultPage(failure: string | null): string {
  const result: SignInResult =
    failure === null
      ? { source: SIGN_IN_RESULT_SOURCE, ok: true }
      : { source: SIGN_IN_RESULT_SOURCE, ok: false, message: failure };
  const text =
    failure === null ? 'You are signed in. Go back to the window you signed in from.' : `Sign-in failed: ${failure}`;
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
