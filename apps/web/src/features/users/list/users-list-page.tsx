import { MAX_IDS, type UserRow } from '@app/contracts';
import { buttonClassName, Card, PageHeader } from '@app/ui';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { useCan, useSession } from '../../auth/use-session';
import { BulkActionDialog, type KnownUsers } from './bulk-action-dialog';
import { RowActionDialog } from './row-action-dialog';
import { useBulkAction } from './use-bulk-action';
import { useRowAction } from './use-row-action';
import { useTablePreferences } from './use-table-preferences';
import { useUsersListState } from './use-users-list-state';
import { useSelection } from '../../../lib/resource-list/use-selection';
import { useUsersTable } from './use-users-table';
import { ACTION_ICONS, bulkActionsFor, canSeeTrash, DESTRUCTIVE_ACTIONS } from './user-actions';
import { SelectionBar } from '../../../lib/resource-list/selection-bar';
import { scopeKey, toListInput } from './users-list-state';
import { UsersSummary } from './users-summary';
import { UsersTable } from './users-table';
import { UsersToolbar } from './users-toolbar';

/** Names of the users seen so far (and of the signed-in one), so a bulk report can say who was skipped. */
function useKnownUsers(rows: UserRow[] | undefined): KnownUsers {
  const me = useSession().session?.user;
  const known = useRef(new Map<number, { name: string; email: string }>());
  useEffect(() => {
    if (me) known.current.set(me.id, { name: me.name, email: me.email });
    for (const row of rows ?? []) known.current.set(row.id, { name: row.name, email: row.email });
  }, [rows, me]);
  return known.current;
}

export function UsersListPage() {
  const m = useMessages();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const can = useCan();
  const trash = canSeeTrash(can);
  const list = useUsersListState({ allowTrash: trash });
  const { state } = list;
  const prefs = useTablePreferences();
  const selection = useSelection(scopeKey(state));
  const query = useQuery(trpc.users.list.queryOptions(toListInput(state), { placeholderData: keepPreviousData }));
  const data = query.data;
  const known = useKnownUsers(data?.rows);
  const bulkActions = bulkActionsFor(state.filters.trashed, can);
  const selectable = bulkActions.length > 0 || can['users.export'];

  const bulk = useBulkAction({ ids: selection.ids, onDone: selection.clear });
  const rowAction = useRowAction({ canRestore: can['users.restore'], onRemoved: selection.deselect });
  const matching = useMutation({
    mutationFn: () => client.users.selected.query({ ...toListInput(state), limit: MAX_IDS }),
    onSuccess: (result) => selection.selectMatching(result.ids, result.total, result.truncated),
    onError: (error) => toast.error(apiErrorMessage(error, m)),
  });
  const table = useUsersTable({
    rows: data?.rows,
    pageCount: data?.meta.pageCount ?? 0,
    list,
    prefs,
    selection,
    selectable,
    onRowAction: rowAction.open,
  });

  // A page that no longer exists (the last rows were deleted, a stale link): go to the last one.
  const pageCount = data?.meta.pageCount ?? 0;
  useEffect(() => {
    if (!query.isPlaceholderData && pageCount > 0 && state.page > pageCount) list.setPage(pageCount);
  }, [query.isPlaceholderData, pageCount, state.page, list.setPage]);

  const pageRows = table.getRowModel().rows.length;

  return (
    <div className={selection.ids.length > 0 ? 'pb-28' : undefined}>
      <title>{m.app.documentTitle(m.usersList.title)}</title>
      <PageHeader
        title={m.usersList.title}
        description={m.usersList.subtitle}
        actions={
          can['users.create'] ? (
            <Link to="/users/new" className={buttonClassName({ size: 'md' })}>
              <UserPlus aria-hidden="true" />
              {m.usersList.newUser}
            </Link>
          ) : null
        }
      />
      <div className="mt-6">
        <UsersSummary stats={data?.stats} filters={state.filters} canSeeTrash={trash} onSelect={list.patchFilters} />
      </div>
      <Card className="mt-4 overflow-hidden">
        <UsersToolbar
          list={list}
          prefs={prefs}
          roles={data?.availableRoles}
          canSeeTrash={trash}
          canExport={can['users.export']}
          selectedIds={selection.ids}
          total={data?.meta.total}
          totalExact={data?.meta.totalExact}
        />
        <UsersTable table={table} query={query} list={list} density={prefs.density} />
      </Card>
      <SelectionBar
        strings={{ ...m.usersList.selection, actionsLabel: m.usersList.bulk.label }}
        count={selection.ids.length}
        matching={selection.matching}
        pageSelected={pageRows > 0 && table.getIsAllPageRowsSelected()}
        pageRows={pageRows}
        total={data?.meta.total ?? 0}
        totalExact={data?.meta.totalExact ?? true}
        actions={bulkActions.map((action) => ({
          key: action,
          label: m.usersList.bulk[action],
          icon: ACTION_ICONS[action],
          destructive: DESTRUCTIVE_ACTIONS.has(action),
        }))}
        onAction={bulk.start}
        onSelectMatching={() => matching.mutate()}
        selectingMatching={matching.isPending}
        onClear={selection.clear}
      />
      <BulkActionDialog flow={bulk} known={known} canSeeTrash={trash} />
      <RowActionDialog flow={rowAction} />
    </div>
  );
}
