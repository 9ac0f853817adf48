import { buttonClassName, PageHeader } from '@app/ui';
import { Plus, Shield } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useRolesMessages } from '../../i18n/roles-messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { ResourceListView } from '../../lib/resource-list/resource-list-view';
import { useResourceList } from '../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import { rolesColumns } from './roles-columns';
import { rolesFilterFields } from './roles-filter-fields';
import { rolesList } from './roles-list-state';

/** `/roles` (roles.view): every role with what it grants and who holds it, searchable, filterable, exportable. */
export function RolesListPage() {
  const m = useRolesMessages();
  const r = useRoleEditorMessages();
  const t = m.roles;
  const trpc = useTRPC();
  const can = useCan();
  const canOpenUsers = can['users.view'] === true;
  const columns = useMemo(() => rolesColumns({ m, canOpenUsers }), [m, canOpenUsers]);
  const fields = useMemo(() => rolesFilterFields(m), [m]);
  const roles = useResourceList(rolesList, {
    query: (input) => trpc.roles.list.queryOptions(input),
    rows: (data) => data.rows,
    columns,
  });

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={
          can['roles.create'] ? (
            <Link to="/roles/new" className={buttonClassName({ size: 'md' })}>
              <Plus aria-hidden="true" />
              {r.newRole}
            </Link>
          ) : null
        }
      />
      <ResourceListView
        className="mt-6"
        controller={roles}
        strings={t}
        filters={{ fields }}
        exportPath="/api/roles/export"
        empty={{ icon: <Shield aria-hidden="true" /> }}
      />
    </div>
  );
}
