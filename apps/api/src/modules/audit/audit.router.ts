import {
  AuditExportInputSchema,
  AuditListResultSchema,
  AuditShowResultSchema,
  auditListQuery,
  IdInputSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { exportProcedure } from '../../trpc/export-procedure.js';
import { can } from '../../trpc/procedures.js';
import { exportAudit } from './export.handler.js';
import { listAudit } from './list.handler.js';
import { showAudit } from './show.handler.js';

export const auditRouter = router({
  list: can('audit.view')
    .meta(rest('GET', '/audit', { summary: 'List audit events: who did what, when, from where; filter, sort, page' }))
    .input(auditListQuery.input)
    .output(AuditListResultSchema)
    .query(listAudit),
  export: exportProcedure({
    permission: 'audit.view',
    path: '/audit/export',
    summary: 'Download the audit events matching a list query as CSV, XLSX or JSON (streamed)',
    input: AuditExportInputSchema,
    handler: exportAudit,
  }),
  show: can('audit.view')
    .meta(rest('GET', '/audit/{id}', { summary: 'Show one audit event with every target and its context' }))
    .input(IdInputSchema)
    .output(AuditShowResultSchema)
    .query(showAudit),
});
