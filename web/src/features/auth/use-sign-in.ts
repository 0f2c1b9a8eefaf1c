import { useDispatch } from 'react-redux';
import type { z } from 'zod';
import type { AuthReply } from '../../../../contract/auth.ts';
import { describeIssues, useCheckedSubmit } from '../../lib/use-checked-submit.ts';
import { signedIn } from './auth.slice.ts';

/**
 * Checks the form with the contract's own rules, then makes the call and records the signed-in
 * user. The page turns to its welcome on success, so the form is not emptied.
 */
export function useSignIn<S extends z.ZodType>(
  body: S,
  call: (body: z.output<S>) => { unwrap(): Promise<AuthReply> },
  labels: Readonly<Record<string, string>>,
) {
  const dispatch = useDispatch();
  const { submit: checkedSubmit, busy, error } = useCheckedSubmit(body, (problems) => describeIssues(problems, labels));

  async function submit(values: z.input<S>): Promise<void> {
    await checkedSubmit(values, async (parsed) => dispatch(signedIn(await call(parsed).unwrap())));
  }

  return { submit, busy, error };
}
