import { z } from 'zod';

/** The location state with which a signed-out visitor is sent to /login: the page first asked for. */
export const RequestedPage = z.object({
  from: z
    .string()
    .startsWith('/')
    .refine((path) => !path.startsWith('//'), 'must stay on this origin'),
});
export type RequestedPage = z.infer<typeof RequestedPage>;

export const DEFAULT_PAGE = '/book';

/** Where to go after sign-in: the page first asked for, else the books. */
export function pageAfterSignIn(locationState: unknown): string {
  const parsed = RequestedPage.safeParse(locationState);
  return parsed.success ? parsed.data.from : DEFAULT_PAGE;
}
