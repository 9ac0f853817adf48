import type { UserListRow, UserRow } from '@app/contracts';
import { buttonClassName, EmptyState, PageHeader } from '@app/ui';
import { FileUp, Trash2, UserPlus, Users } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';
import { toListInput } from '../../../lib/resource-list/list-state';
import { ResourceListView } from '../../../lib/resource-list/resource-list-view';
import { useResourceList } from '../../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../../lib/trpc';
import { useCan, useSession } from '../../auth/use-session';
import { BulkActionDialog, type KnownUsers } from './bulk-action-dialog';
import { RowActionDialog } from './row-action-dialog';
import { SelectionBulkDialog } from './selection-bulk-dialog';
import { useBulkAction } from './use-bulk-action';
import { useRowAction } from './use-row-action';
import { useSelectionBulk } from './use-selection-bulk';
import { RoleIdsContext } from './role-badges';
import { RolePickDialog, useRolePick } from './role-pick-dialog';
import { BAR_ICONS, bulkActionsFor, canSeeTrash, DESTRUCTIVE_ACTIONS } from './user-actions';
import { usersColumns } from './users-columns';
import { inChipOrder, usersFilterFields } from './users-filter-fields';
import { type UsersListState, usersList } from './users-list-state';
import { UsersRowActions } from './users-row-actions';
import { UsersSummary } from './users-summary';

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

const onlyTrash = (state: UsersListState) =>
  state.filters.trashed === 'only' && state.q === '' && Object.keys(state.filters).length === 1;

export function UsersListPage() {
  const m = useMessages();
  const t = m.usersList;
  const trpc = useTRPC();
  const can = useCan();
  const trash = canSeeTrash(can);
  // A shared link to the trash opens as the plain list for someone who may not see it.
  const sanitize = useCallback(
    (parsed: UsersListState): UsersListState => {
      if (trash || !parsed.filters.trashed) return parsed;
      const { trashed: _hidden, ...filters } = parsed.filters;
      return { ...parsed, filters };
    },
    [trash],
  );
  const rowAction = useRowAction({ canRestore: can['users.restore'], onRemoved: (id) => users.selection.deselect(id) });
  const columns = useMemo(
    () =>
      usersColumns({
        m,
        renderActions: (row: UserListRow) => <UsersRowActions row={row} onRequest={rowAction.open} />,
      }),
    [m, rowAction.open],
  );
  const users = useResourceList(usersList, {
    query: (input) => trpc.users.list.queryOptions(input),
    rows: (data) => data.rows,
    columns,
    selectable: (s) => bulkActionsFor(s.filters.trashed, can).length > 0 || can['users.export'],
    sanitize,
  });
  const { state, selection, data } = users;
  const known = useKnownUsers(data?.rows);
  const bulkActions = bulkActionsFor(state.filters.trashed, can);
  const bulk = useBulkAction({ ids: selection.ids, onDone: selection.clear });
  // "All N matching" is acted on as the query itself (a background job), whatever N is.
  const { q, filters } = toListInput(state);
  const everyMatching = selection.matching
    ? { query: { ...(q ? { q } : {}), filters }, except: [...selection.matching.except] }
    : null;
  const jobBulk = useSelectionBulk({
    selection: everyMatching,
    total: { count: selection.matching?.total ?? 0, exact: selection.matching?.exact ?? true },
    onStarted: selection.clear,
  });
  const fields = usersFilterFields(m, data?.availableRoles, trash);
  const roleIds = useMemo(
    () => new Map((data?.availableRoles ?? []).map((r) => [r.name, r.id])),
    [data?.availableRoles],
  );
  // Every bulk action runs on the ids, or on every match as a job (a role action once its role is picked).
  const rolePick = useRolePick((command) => (selection.matching ? jobBulk.start(command) : bulk.start(command)));

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={
          can['users.create'] ? (
            <>
              <Link to="/users/import" className={buttonClassName({ variant: 'secondary', size: 'md' })}>
                <FileUp aria-hidden="true" />
                {m.usersList.importUsers}
              </Link>
              <Link to="/users/new" className={buttonClassName({ size: 'md' })}>
                <UserPlus aria-hidden="true" />
                {t.newUser}
              </Link>
            </>
          ) : null
        }
      />
      <div className="mt-6">
        <UsersSummary
          stats={data?.stats}
          filters={state.filters}
          canSeeTrash={trash}
          onSelect={users.list.patchFilters}
        />
      </div>
      <RoleIdsContext value={roleIds}>
        <ResourceListView
          className="mt-4"
          controller={users}
          strings={t}
          // Until the roles arrive the form offers none; their chip says "…" meanwhile.
          filters={{
            fields: data?.availableRoles ? fields : usersFilterFields(m, [], trash),
            chipFields: inChipOrder(fields),
          }}
          {...(can['users.export'] ? { exportPath: '/api/users/export' } : {})}
          empty={{
            icon: <Users aria-hidden="true" />,
            special: (s) =>
              onlyTrash(s) ? (
                <EmptyState
                  icon={<Trash2 aria-hidden="true" />}
                  title={t.empty.trashTitle}
                  description={t.empty.trashBody}
                />
              ) : null,
          }}
          bulk={{
            actions: bulkActions.map((action) => ({
              key: action,
              label: t.bulk[action],
              icon: BAR_ICONS[action],
              destructive: DESTRUCTIVE_ACTIONS.has(action),
            })),
            onAction: rolePick.onAction,
            onSelectMatching: () => selection.selectMatching(data?.meta.total ?? 0, data?.meta.totalExact ?? true),
            selectingMatching: false,
          }}
        />
      </RoleIdsContext>
      <RolePickDialog
        flow={rolePick}
        count={selection.matching ? selection.matching.total : selection.ids.length}
        roles={data?.availableRoles}
      />
      <BulkActionDialog flow={bulk} known={known} canSeeTrash={trash} />
      <SelectionBulkDialog flow={jobBulk} />
      <RowActionDialog flow={rowAction} />
    </div>
  );
}
