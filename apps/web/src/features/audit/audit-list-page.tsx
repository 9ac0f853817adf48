import type { AuditRow } from '@app/contracts';
import { buttonClassName, PageHeader } from '@app/ui';
import { IdCard, ScrollText } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { useAuditMessages } from '../../i18n/audit-messages';
import { ResourceListView } from '../../lib/resource-list/resource-list-view';
import { useResourceList } from '../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import { auditColumns } from './audit-columns';
import { auditFilterFields } from './audit-filter-fields';
import { auditList, SCIM_CHANGES_HREF } from './audit-list-state';

/** Names of the users the pages so far have shown, so a chip says "By Ada" rather than an id. */
function useSeenNames(rows: AuditRow[] | undefined): ReadonlyMap<number, string> {
  const names = useRef(new Map<number, string>());
  for (const row of rows ?? []) {
    if (row.actor_id && row.actor_name) names.current.set(row.actor_id, row.actor_name);
    for (const [id, name] of Object.entries(row.target_names)) names.current.set(Number(id), name);
  }
  return names.current;
}

/** `/audit`: every recorded event, searchable, filterable and exportable, newest first. */
export function AuditListPage() {
  const m = useAuditMessages();
  const t = m.audit;
  const trpc = useTRPC();
  const can = useCan();
  const canOpenUsers = can['users.view'] === true;
  const columns = useMemo(() => auditColumns({ m, canOpenUsers }), [m, canOpenUsers]);
  const audit = useResourceList(auditList, {
    query: (input) => trpc.audit.list.queryOptions(input),
    rows: (data) => data.rows,
    columns,
  });
  const names = useSeenNames(audit.rows);

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={
          <Link to={SCIM_CHANGES_HREF} className={buttonClassName({ variant: 'secondary' })}>
            <IdCard aria-hidden="true" />
            {t.scimChanges}
          </Link>
        }
      />
      <ResourceListView
        className="mt-6"
        controller={audit}
        strings={t}
        filters={{ fields: auditFilterFields(m, names) }}
        exportPath="/api/audit/export"
        empty={{ icon: <ScrollText aria-hidden="true" /> }}
      />
    </div>
  );
}
