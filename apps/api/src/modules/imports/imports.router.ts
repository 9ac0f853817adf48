import {
  IMPORT_MEDIA_TYPES,
  ImportNewResultSchema,
  ImportOptionsSchema,
  JobAnswerSchema,
  JobUndoInputSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can, protectedProcedure } from '../../trpc/procedures.js';
import { newImportForm } from './new.handler.js';
import { submitImport } from './submit.handler.js';
import { undoImport } from './undo.handler.js';

/** Imports: the file is the request's body (REST only), the options its query string. */
export const importsRouter = router({
  new: can('users.create')
    .meta(
      rest('GET', '/users/imports/new', {
        summary: 'Data for the import page: each mode, option and default role, and whether you may choose it',
      }),
    )
    .output(ImportNewResultSchema)
    .query(newImportForm),
  submit: can('users.create')
    .meta(
      rest('POST', '/users/imports', {
        status: 202,
        summary: 'Import users from a CSV, XLSX, JSON or NDJSON file: a job (dry run, create or upsert)',
        upload: { mediaTypes: [...Object.keys(IMPORT_MEDIA_TYPES), 'multipart/form-data'] },
        problems: [
          'BAD_REQUEST',
          'PAYLOAD_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'OUTRANKED',
          'IDEMPOTENCY_KEY_IN_USE',
          'IDEMPOTENCY_KEY_REUSED',
        ],
      }),
    )
    .input(ImportOptionsSchema)
    .output(JobAnswerSchema)
    .mutation(submitImport),
  undo: protectedProcedure
    .meta(
      rest('POST', '/jobs/{id}/undo', {
        status: 202,
        summary:
          'Undo a finished or cancelled job that changed users: an import (remove the accounts it created, put back those it updated) or a bulk change (the opposite change)',
        problems: ['NOT_FOUND', 'NOT_UNDOABLE', 'VALIDATION_FAILED'],
      }),
    )
    .input(JobUndoInputSchema)
    .output(JobAnswerSchema)
    .mutation(undoImport),
});
