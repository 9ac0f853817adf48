import { AuditListResultSchema, AuditShowResultSchema, auditListQuery, IdInputSchema } from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { listAudit } from './list.handler.js';
import { showAudit } from './show.handler.js';

export const auditRouter = router({
  list: can('audit.view')
    .meta(rest('GET', '/audit', { summary: 'List audit events: who did what, when, from where; filter, sort, page' }))
    .input(auditListQuery.input)
    .output(AuditListResultSchema)
    .query(listAudit),
  show: can('audit.view')
    .meta(rest('GET', '/audit/{id}', { summary: 'Show one audit event with every target and its context' }))
    .input(IdInputSchema)
    .output(AuditShowResultSchema)
    .query(showAudit),
});
