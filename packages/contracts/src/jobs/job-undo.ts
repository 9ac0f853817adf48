import { z } from 'zod';

/**
 * POST /jobs/{id}/undo (SPEC §14, "Mass changes"): undoes a finished or cancelled job that
 * changed users — an import, or a bulk change of status, role, trash — as a job of kind `undo`.
 * `dryRun` judges every user first and changes none (it does not use up the undo).
 */
export const JobUndoInputSchema = z.object({
  id: z.coerce.number({ error: 'The job id must be a whole number.' }).int().positive(),
  dryRun: z.boolean({ error: 'dryRun must be true or false.' }).default(false),
});
export type JobUndoInput = z.output<typeof JobUndoInputSchema>;
