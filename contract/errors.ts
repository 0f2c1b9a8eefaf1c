import { z } from 'zod';

/** Every error reply of the API has this shape (docs/behaviour/bad-input-and-limits.md). */
export const ErrorReply = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;
