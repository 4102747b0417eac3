import { z } from 'zod';
import { ERROR_CODES } from '../errors';

export const errorBodySchema = z.object({
  code: z.enum(ERROR_CODES as [string, ...string[]]),
  message: z.string(),
  details: z.unknown().optional(),
  requestId: z.string().optional(),
});

export const idParamsSchema = z.object({ id: z.uuid({ message: 'validation.format' }) });

/** Every command answers with the global position it wrote, for read-your-writes. */
export const commandResultSchema = z.object({ id: z.string(), position: z.string().nullable() });
export type CommandResult = z.infer<typeof commandResultSchema>;
