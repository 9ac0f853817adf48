import { PageHeader } from '@app/ui';
import { Users } from 'lucide-react';
import { useMemo } from 'react';
import { useMessages } from '../../../i18n/messages';
import { ResourceListView } from '../../../lib/resource-list/resource-list-view';
import { useResourceList } from '../../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';
import { RoleIdsScope } from './role-badges';
import { RowActionsScope } from './row-actions-scope';
import { canSeeTrash } from './user-actions';
import { usersBulkActions } from './users-bulk-actions';
import { PageUsersScope } from './users-attribute-columns';
import { columnsByDefinitions } from './users-columns';
import { UsersCreateLinks } from './users-create-links';
import { usersFilters } from '../../../lib/users-query/users-filter-fields';
import { onlyTrash, usersList, withoutTrash } from '../../../lib/users-query/users-list-state';
import { EmptyTrash, UsersSummary } from './users-summary';

/** `/users`: the summary, the list with its filters and export, its row menus and its bulk actions. */
export function UsersListPage() {
  const m = useMessages();
  const t = m.usersList;
  const trpc = useTRPC();
  const can = useCan();
  const trash = canSeeTrash(can);
  const columns = useMemo(() => columnsByDefinitions(m), [m]);
  const declaration = useMemo(() => usersBulkActions(m), [m]);
  const users = useResourceList(usersList, {
    query: (input) => trpc.users.list.queryOptions(input),
    rows: (data) => data.rows,
    columns,
    ...(trash ? {} : { sanitize: withoutTrash }),
    // An export of a selection needs ticks even where no bulk action is offered.
    selectable: can['users.export'],
    bulk: { declaration, can, submit: trpc.users.bulk.mutationOptions(), refresh: trpc.users.pathFilter() },
  });
  const { data } = users;

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={can['users.create'] ? <UsersCreateLinks /> : null}
      />
      <div className="mt-6">
        <UsersSummary
          stats={data?.stats}
          filters={users.state.filters}
          canSeeTrash={trash}
          onSelect={users.list.patchFilters}
        />
      </div>
      <RowActionsScope canRestore={can['users.restore']} onRemoved={users.selection.deselect}>
        <RoleIdsScope roles={data?.availableRoles}>
          <PageUsersScope rows={users.rows}>
            <ResourceListView
              className="mt-4"
              controller={users}
              strings={t}
              filters={usersFilters(m, data?.availableRoles, trash, data?.attributes)}
              {...(can['users.export'] ? { exportPath: '/api/users/export' } : {})}
              empty={{ icon: <Users aria-hidden="true" />, special: (s) => (onlyTrash(s) ? <EmptyTrash /> : null) }}
            />
          </PageUsersScope>
        </RoleIdsScope>
      </RowActionsScope>
    </div>
  );
}
