import { USER_COLUMNS, type UsersExportInput } from '@app/contracts';
import { type ExportCaller, exportDownload } from '../../export/export-download.js';
import type { FileDownload } from '../../export/file-download.js';
import { openUserBatches } from './export.rows.js';
import { assertTrashAllowed } from './users.list-query.js';
import type { HandlerCall } from '../../context.js';

/**
 * GET /users/export: the users matching a list query (optionally narrowed to `ids`) as a CSV,
 * XLSX or JSON download, streamed batch by batch. The trash view is checked before the export's
 * own sequence (rate, audit row, rows), so a refused view costs no allowance.
 */
export async function exportUsers({ ctx, input }: HandlerCall<UsersExportInput, ExportCaller>): Promise<FileDownload> {
  assertTrashAllowed(ctx.actor, input);
  return exportDownload(ctx, input, {
    resource: 'users',
    sheetName: 'Users',
    columns: USER_COLUMNS,
    audit: { action: 'users.export', targetType: 'user', context: input.ids ? { ids: input.ids.length } : {} },
    batches: () => openUserBatches(ctx.db, input),
  });
}
