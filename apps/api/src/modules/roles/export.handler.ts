import { ROLE_COLUMNS, type RoleExportRow, type RolesExportInput } from '@app/contracts';
import type { Database } from '../../db/database.js';
import { type ExportCaller, exportDownload } from '../../export/export-download.js';
import type { FileDownload } from '../../export/file-download.js';
import { toIso } from '../../db/sql-date.js';
import { permissionNamesOf, roleIdsInOrder, rolesByIds } from './roles.reads.js';
import type { HandlerCall } from '../../context.js';

/** Roles per batch: each batch is two statements (the roles, then their permissions). */
const BATCH = 500;

/**
 * GET /roles/export: the roles matching a list query as a CSV, XLSX or JSON download, in the
 * list's order. The matching ids are read first, in one statement (there are hundreds of roles,
 * not millions), so every batch reads from one consistent list. The export is an audit event
 * (`roles.export`), written before the first byte.
 */
export async function exportRoles({ ctx, input }: HandlerCall<RolesExportInput, ExportCaller>): Promise<FileDownload> {
  return exportDownload(ctx, input, {
    resource: 'roles',
    sheetName: 'Roles',
    columns: ROLE_COLUMNS,
    audit: { action: 'roles.export', targetType: 'role' },
    batches: () => roleBatches(ctx.db, input),
  });
}

async function exportRows(db: Database, ids: readonly number[]): Promise<RoleExportRow[]> {
  const [records, names] = await Promise.all([rolesByIds(db, ids), permissionNamesOf(db, ids)]);
  return records.map((r) => {
    const permissions = names.get(Number(r.id)) ?? [];
    return {
      id: Number(r.id),
      name: r.name,
      description: r.description ?? null,
      permissions: permissions.join(', '),
      permissions_count: permissions.length,
      users_count: Number(r.users_count),
      created_at: toIso(r.created_at) as string,
    };
  });
}

/** The rows in the list's order, BATCH at a time; the first batch is read before the answer starts. */
async function roleBatches(db: Database, input: RolesExportInput): Promise<AsyncGenerator<RoleExportRow[]>> {
  const ids = await roleIdsInOrder(db, input);
  const first = await exportRows(db, ids.slice(0, BATCH));
  return (async function* batches() {
    if (first.length) yield first;
    for (let at = BATCH; at < ids.length; at += BATCH) {
      const rows = await exportRows(db, ids.slice(at, at + BATCH));
      if (rows.length) yield rows;
    }
  })();
}
