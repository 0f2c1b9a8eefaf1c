import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { z } from 'zod';
import type { AuthReply } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { signedIn } from './auth.slice.ts';

/**
 * Checks the form with the contract's own rules, so the user reads the server's wording before a
 * round trip, then makes the call and records the signed-in user.
 */
export function useSignIn<S extends z.ZodType>(
  body: S,
  call: (client: HttpClient, body: z.output<S>) => Promise<AuthReply>,
  labels: Readonly<Record<string, string>>,
) {
  const client = useApiClient();
  const dispatch = useDispatch();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(values: z.input<S>): Promise<void> {
    const parsed = body.safeParse(values);
    if (!parsed.success) {
      setError(describeIssues(parsed.error, labels));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // The page turns to its welcome on success, so this form's state is left as it is.
      dispatch(signedIn(await call(client, parsed.data)));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return { submit, busy, error };
}

/** Each problem under the label the user sees, as in 'Password must be at least 10 characters'. */
export function describeIssues(error: z.ZodError, labels: Readonly<Record<string, string>>): string {
  return error.issues
    .map((issue) => {
      const field = issue.path[0];
      if (field === undefined) return issue.message;
      return `${labels[String(field)] ?? String(field)} ${issue.message}`;
    })
    .join('; ');
}
