import { z } from 'zod';

export const HealthReply = z.object({
  status: z.literal('ok'),
  storage: z.enum(['sqlite', 'postgres']),
});
export type HealthReply = z.infer<typeof HealthReply>;
