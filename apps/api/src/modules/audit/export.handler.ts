import { AUDIT_COLUMNS, type AuditExportInput, type AuditRow } from '@app/contracts';
import { Op } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import { auditOriginOf, recordAudit } from '../../audit/audit.js';
import { keysetBatches } from '../../export/batches.js';
import { exportAuditContext, exportFilename, pickColumns } from '../../export/columns.js';
import { assertExportRate } from '../../export/export-rate.js';
import { FileDownload } from '../../export/file-download.js';
import { EXPORT_WRITERS } from '../../export/formats.js';
import { after } from '../../query/list-query-engine.js';
import type { Context } from '../../trpc/context.js';
import { auditMapping } from './audit.mapping.js';
import { auditPageIds, auditScope } from './audit.reads.js';
import { auditRowsByIds } from './audit.rows.js';

/** Events per batch: rows carry JSON documents, so fewer than the users export's 1 000. */
const BATCH = 500;

/**
 * GET /audit/export: the events matching a list query as a CSV, XLSX or JSON download, in the
 * list's order, streamed in keyset batches. The export itself is an event of the trail, written
 * before the first byte.
 */
export async function exportAudit({
  ctx,
  input,
}: {
  ctx: Pick<Context, 'db' | 'auth' | 'ip' | 'requestId'> & { actor: Actor };
  input: AuditExportInput;
}): Promise<FileDownload> {
  const { db } = ctx;
  await assertExportRate(ctx);
  const scope = await auditScope(db, input);
  await recordAudit(db, null, {
    ...auditOriginOf(ctx),
    action: 'audit.export',
    context: exportAuditContext(input),
  });
  const read = async (last: AuditRow | undefined) => {
    const continuation = last && after(auditMapping, input, { ...last, occurred_at: new Date(last.occurred_at) });
    const where = continuation ? { [Op.and]: [scope.where, continuation] } : scope.where;
    return auditRowsByIds(db, await auditPageIds(db, { ...scope, where }, input, BATCH, 0), { allTargets: true });
  };
  const writer = EXPORT_WRITERS[input.format];
  return new FileDownload(
    exportFilename('audit', writer.extension),
    writer.contentType,
    writer.write(await keysetBatches(read, BATCH), pickColumns(AUDIT_COLUMNS, input.columns), { sheetName: 'Audit' }),
  );
}
