import { AUDIT_COLUMNS, type AuditExportInput, type AuditRow } from '@app/contracts';
import { Op } from 'sequelize';
import type { Database } from '../../db/database.js';
import { keysetBatches } from '../../export/batches.js';
import { type ExportCaller, exportDownload } from '../../export/export-download.js';
import type { FileDownload } from '../../export/file-download.js';
import { after } from '../../query/list-query-engine.js';
import { auditMapping } from './audit.mapping.js';
import { auditPageIds, auditScope } from './audit.reads.js';
import { type AuditRedaction, auditRedactionFor } from './audit.redaction.js';
import { auditRowsByIds } from './audit.rows.js';
import type { HandlerCall } from '../../context.js';

/** Events per batch: rows carry JSON documents, so fewer than the users export's 1 000. */
const BATCH = 500;

/**
 * GET /audit/export: the events matching a list query as a CSV, XLSX or JSON download, in the
 * list's order, streamed in keyset batches. The export itself is an event of the trail, written
 * before the first byte.
 */
export async function exportAudit({ ctx, input }: HandlerCall<AuditExportInput, ExportCaller>): Promise<FileDownload> {
  return exportDownload(ctx, input, {
    resource: 'audit',
    sheetName: 'Audit',
    columns: AUDIT_COLUMNS,
    audit: { action: 'audit.export' },
    batches: async () => auditBatches(ctx.db, input, await auditRedactionFor(ctx.db, ctx.actor)),
  });
}

/** The events in the list's order, each batch continuing after the last row of the one before. */
async function auditBatches(
  db: Database,
  input: AuditExportInput,
  redaction: AuditRedaction,
): Promise<AsyncGenerator<AuditRow[]>> {
  const scope = await auditScope(db, input);
  const read = async (last: AuditRow | undefined) => {
    const continuation = last && after(auditMapping, input, { ...last, occurred_at: new Date(last.occurred_at) });
    const where = continuation ? { [Op.and]: [scope.where, continuation] } : scope.where;
    const ids = await auditPageIds(db, { ...scope, where }, input, BATCH, 0);
    return auditRowsByIds(db, ids, { redaction, actor: null });
  };
  return keysetBatches(read, BATCH);
}
