import type { Permission } from '@app/contracts';
import type { z } from 'zod';
import { EXPORT_MEDIA_TYPES } from '../export/formats.js';
import type { FileDownload } from '../export/file-download.js';
import { rest } from './init.js';
import { can, fromTheApp, restDownload } from './procedures.js';

interface ExportRoute<Input extends z.ZodType> {
  permission: Permission;
  /** The REST path (GET); the tRPC door's refusal names it too. */
  path: string;
  /** The OpenAPI summary. */
  summary: string;
  input: Input;
}

/**
 * A resource's export up to its handler. Checked in this order, each before the handler spends
 * anything: the permission, a cookie caller's origin (`fromTheApp`), the door (`restDownload`:
 * only REST delivers a file), then the input. The handler's rate limit is listed for OpenAPI.
 */
const exportRoute = <Input extends z.ZodType>({ permission, path, summary, input }: ExportRoute<Input>) =>
  can(permission)
    .meta(rest('GET', path, { summary, produces: EXPORT_MEDIA_TYPES, problems: ['RATE_LIMITED'] }))
    .use(fromTheApp('export'))
    .use(restDownload)
    .input(input);

/** What the export's handler is given: tRPC's own resolver options for that route (ctx, the parsed input). */
type ExportHandlerOptions<Input extends z.ZodType> = Parameters<
  Parameters<ReturnType<typeof exportRoute<Input>>['query']>[0]
>[0];

/** A resource's export: a GET whose answer is a file in one of the export formats (CSV, XLSX, JSON). */
export function exportProcedure<Input extends z.ZodType>(
  route: ExportRoute<Input> & { handler: (opts: ExportHandlerOptions<Input>) => Promise<FileDownload> },
) {
  return exportRoute(route).query(route.handler);
}
