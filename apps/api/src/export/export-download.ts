import type { AuditAction, ExportFormat } from '@app/contracts';
import { type AuditOriginSource, auditOriginOf, recordChange } from '../journal/journal.js';
import type { Database } from '../db/database.js';
import { type ExportColumn, exportAuditContext, exportFilename, pickColumns } from './columns.js';
import { assertExportRate } from './export-rate.js';
import { FileDownload } from './file-download.js';
import { EXPORT_WRITERS } from './formats.js';

/** Who asks for an export: the database, and who they are (for the allowance and the audit row). */
export type ExportCaller = AuditOriginSource & { db: Database };

/** What every export input holds: the list query and the export's `format` and `columns`. */
export type ExportRequest<Key extends string> = Parameters<typeof exportAuditContext>[0] & {
  format: ExportFormat;
  columns: readonly Key[];
};

/** What a resource tells its export; the sequence around it is the same for every resource. */
export interface ExportOf<Row extends object, Column extends ExportColumn<Row>> {
  /** The file name's stem: `users` → `users-20250102-030405.csv`. */
  resource: string;
  /** The XLSX sheet's name. */
  sheetName: string;
  /** The resource's column set, from the contract; the input's `columns` pick and order from it. */
  columns: readonly Column[];
  /** The audit row: its action, and what it adds to the request's format, columns and list query. */
  audit: { action: AuditAction; targetType?: string; context?: Record<string, unknown> };
  /** Opens the rows' batches (reading the first, so a failing query is an error answer, not a 200 cut short). */
  batches: () => Promise<AsyncIterable<Row[]>>;
}

/**
 * An export, in the order every resource needs: the caller's allowance, then the audit row (so
 * an export cut short is on record too), then the rows, streamed in the format asked for.
 */
export async function exportDownload<Row extends object, Column extends ExportColumn<Row>>(
  ctx: ExportCaller,
  input: ExportRequest<Column['key']>,
  spec: ExportOf<Row, Column>,
): Promise<FileDownload> {
  await assertExportRate(ctx);
  await recordChange(ctx.db, null, {
    ...auditOriginOf(ctx),
    action: spec.audit.action,
    ...(spec.audit.targetType ? { targetType: spec.audit.targetType } : {}),
    context: { ...exportAuditContext(input), ...spec.audit.context },
  });
  const writer = EXPORT_WRITERS[input.format];
  return new FileDownload(
    exportFilename(spec.resource, writer.extension),
    writer.contentType,
    await writer.write(await spec.batches(), pickColumns(spec.columns, input.columns), { sheetName: spec.sheetName }),
  );
}
