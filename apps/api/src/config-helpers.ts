import { z } from 'zod';

/** Environment booleans: true/false/1/0 in any case; anything else is a start-up error, not a silent false. */
export const envBoolean = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      ctx.addIssue({ code: 'custom', message: `must be true, false, 1 or 0 (got "${v}")` });
      return z.NEVER;
    });

/** Empty strings in the environment mean "not set". */
export const envOptional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
