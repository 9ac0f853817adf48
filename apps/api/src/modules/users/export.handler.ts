import type { UsersExportInput } from '@app/contracts';
import { auditOriginOf, recordAudit } from '../../audit/audit.js';
import { bucketKey, hit } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import { plainFilters } from '../../query/list-query-engine.js';
import { FileDownload } from '../../rest/bridge.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { exportFilename, pickColumns } from './export.columns.js';
import { EXPORT_WRITERS } from './export.formats.js';
import { openUserBatches } from './export.rows.js';
import { assertTrashAllowed } from './users.list-query.js';

const EXPORTS_PER_WINDOW = 10;
const WINDOW_MS = 60_000;

async function assertExportRate(ctx: Context & { actor: Actor }): Promise<void> {
  const window = await hit(ctx.db, bucketKey('export', String(ctx.actor.id)), WINDOW_MS);
  if (window.hits <= EXPORTS_PER_WINDOW) return;
  const seconds = window.retryAfterSeconds;
  throw new AppError(
    'RATE_LIMITED',
    `Too many exports: at most ${EXPORTS_PER_WINDOW} a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

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
  if (ctx.transport !== 'rest') {
    throw new AppError('BAD_REQUEST', 'Export is a file download: use GET /api/users/export.');
  }
  assertTrashAllowed(ctx.actor, input);
  await assertExportRate(ctx);
  await recordAudit(ctx.db, null, {
    ...auditOriginOf(ctx),
    action: 'users.export',
    targetType: 'user',
    context: {
      format: input.format,
      columns: input.columns,
      filters: plainFilters(input.filters),
      q: input.q,
      sort: input.sort,
      dir: input.sort ? input.dir : null,
      ...(input.ids ? { ids: input.ids.length } : {}),
    },
  });
  const writer = EXPORT_WRITERS[input.format];
  const batches = await openUserBatches(ctx.db, input);
  return new FileDownload(
    exportFilename(writer.extension),
    writer.contentType,
    writer.write(batches, pickColumns(input.columns)),
  );
}
