import { USER_COLUMNS, type UsersExportInput } from '@app/contracts';
import { auditOriginOf, recordAudit } from '../../audit/audit.js';
import { FileDownload } from '../../export/file-download.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { exportAuditContext, exportFilename, pickColumns } from '../../export/columns.js';
import { assertExportRate } from '../../export/export-rate.js';
import { EXPORT_WRITERS } from '../../export/formats.js';
import { openUserBatches } from './export.rows.js';
import { assertTrashAllowed } from './users.list-query.js';

/**
 * GET /users/export: the users matching a list query (optionally narrowed to `ids`) as a CSV,
 * XLSX or JSON download, streamed batch by batch. Checks come first (door, trash view, rate),
 * then the audit row, so an export cut short is on record too.
 */
export async function exportUsers({
  ctx,
  input,
}: {
  ctx: Context & { actor: Actor };
  input: UsersExportInput;
}): Promise<FileDownload> {
  assertTrashAllowed(ctx.actor, input);
  await assertExportRate(ctx);
  await recordAudit(ctx.db, null, {
    ...auditOriginOf(ctx),
    action: 'users.export',
    targetType: 'user',
    context: { ...exportAuditContext(input), ...(input.ids ? { ids: input.ids.length } : {}) },
  });
  const writer = EXPORT_WRITERS[input.format];
  const batches = await openUserBatches(ctx.db, input);
  return new FileDownload(
    exportFilename('users', writer.extension),
    writer.contentType,
    writer.write(batches, pickColumns(USER_COLUMNS, input.columns), { sheetName: 'Users' }),
  );
}
