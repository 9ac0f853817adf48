import {
  AuditExportInputSchema,
  AuditListResultSchema,
  AuditShowResultSchema,
  auditListQuery,
  IdInputSchema,
} from '@app/contracts';
import { EXPORT_MEDIA_TYPES } from '../../export/formats.js';
import { rest, router } from '../../trpc/init.js';
import { can, fromTheApp, restDownload } from '../../trpc/procedures.js';
import { exportAudit } from './export.handler.js';
import { listAudit } from './list.handler.js';
import { showAudit } from './show.handler.js';

export const auditRouter = router({
  list: can('audit.view')
    .meta(rest('GET', '/audit', { summary: 'List audit events: who did what, when, from where; filter, sort, page' }))
    .input(auditListQuery.input)
    .output(AuditListResultSchema)
    .query(listAudit),
  export: can('audit.view')
    .meta(
      rest('GET', '/audit/export', {
        summary: 'Download the audit events matching a list query as CSV, XLSX or JSON (streamed)',
        produces: EXPORT_MEDIA_TYPES,
        problems: ['RATE_LIMITED'],
      }),
    )
    .use(fromTheApp('export'))
    .use(restDownload)
    .input(AuditExportInputSchema)
    .query(exportAudit),
  show: can('audit.view')
    .meta(rest('GET', '/audit/{id}', { summary: 'Show one audit event with every target and its context' }))
    .input(IdInputSchema)
    .output(AuditShowResultSchema)
    .query(showAudit),
});
