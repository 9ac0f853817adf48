import { type ColumnType, USER_COLUMNS, type UsersExportInput } from '@app/contracts';
import type { ExportColumn } from '../../export/columns.js';
import { type ExportCaller, exportDownload } from '../../export/export-download.js';
import type { FileDownload } from '../../export/file-download.js';
import type { AttributeTarget } from '../../domain/attributes.list-query.js';
import { openUserBatches, type UserExportRow } from './export.rows.js';
import { assertTrashAllowed } from './users.list-query.js';
import { withAttributeScope } from './users.attributes-query.js';
import type { HandlerCall } from '../../context.js';

const ATTRIBUTE_COLUMN = 'attributes.';

/** How an attribute's values are written: numbers and user ids bare, yes/no as true/false, the rest as text. */
const columnType = (target: AttributeTarget): ColumnType =>
  target.type === 'number' || target.type === 'user' ? 'number' : target.type === 'boolean' ? 'boolean' : 'string';

/**
 * GET /users/export: the users matching a list query (optionally narrowed to `ids`) as a CSV,
 * XLSX or JSON download, streamed batch by batch. The trash view and the attributes the query
 * names (filters, sort, `attributes.<key>` columns, headed by the attribute's label so the file
 * imports back) are checked before the export's own sequence (rate, audit row, rows), so a
 * refused request costs no allowance.
 */
export async function exportUsers({ ctx, input }: HandlerCall<UsersExportInput, ExportCaller>): Promise<FileDownload> {
  assertTrashAllowed(ctx.actor, input);
  const keys = input.columns.filter((c) => c.startsWith(ATTRIBUTE_COLUMN)).map((c) => c.slice(ATTRIBUTE_COLUMN.length));
  const scoped = await withAttributeScope(ctx.db, ctx.actor, input, keys);
  const exported = keys.flatMap((key) => scoped.visible.find((d) => d.key === key) ?? []);
  const columns: Array<ExportColumn<UserExportRow>> = [
    ...USER_COLUMNS,
    ...scoped.columns.map((t) => {
      // The rows hold the values in `exported`'s order.
      const at = exported.findIndex((d) => d.key === t.key);
      return {
        key: `${ATTRIBUTE_COLUMN}${t.key}`,
        label: t.label,
        type: columnType(t),
        read: (row: UserExportRow) => row.attributeValues[at],
      };
    }),
  ];
  return exportDownload(ctx, input, {
    resource: 'users',
    sheetName: 'Users',
    columns,
    audit: { action: 'users.export', targetType: 'user', context: input.ids ? { ids: input.ids.length } : {} },
    batches: () => openUserBatches(ctx.db, scoped.query, exported),
  });
}
