import { USER_COLUMN_KEYS, type UserColumnKey, type UserListRow, usersListQuery } from '@app/contracts';
import { Badge } from '@app/ui';
import { Link } from 'react-router';
import { formatDate } from '../../../i18n/dates';
import type { Messages } from '../../../i18n/messages';
import { DateCell, defineColumns } from '../../../lib/resource-list/define-columns';
import { RoleBadges } from './role-badges';
import { type AttributeColumnDefinition, attributeColumns, definitionsKey } from './users-attribute-columns';
import { LOCKED_COLUMNS } from '../../../lib/users-query/users-list-state';
import { UsersRowActions } from './users-row-actions';

/**
 * The table's columns: selection (shown when the view offers it), the contract's column set in its
 * order, a column per custom attribute the caller may see (hidden until shown), the row's menu.
 */
function usersColumns(m: Messages, attributes?: readonly AttributeColumnDefinition[]) {
  const t = m.usersList;
  const locale = m.app.locale;
  return defineColumns<UserListRow, UserColumnKey>({
    keys: USER_COLUMN_KEYS,
    labels: t.columns,
    primary: 'name',
    sortable: usersListQuery.sorts,
    locked: LOCKED_COLUMNS,
    select: { page: t.table.selectPage, row: (row) => t.table.selectRow(row.name) },
    extra: attributeColumns(attributes),
    actions: { label: t.columns.actions, render: (row) => <UsersRowActions row={row} /> },
    cells: {
      id: {
        render: (row) => <span className="text-muted-foreground tabular-nums">{row.id}</span>,
        className: 'w-16',
        skeleton: 'w-8',
      },
      name: {
        render: (row) => (
          <Link
            to={`/users/${row.id}`}
            className="block max-w-56 truncate rounded-sm font-medium text-foreground underline-offset-4 hover:underline"
          >
            {row.name}
          </Link>
        ),
        className: 'min-w-40',
        skeleton: 'w-32',
      },
      email: {
        render: (row) => <span className="block max-w-xs truncate text-muted-foreground">{row.email}</span>,
        skeleton: 'w-44',
      },
      roles_count: {
        render: (row) => <span className="tabular-nums">{row.roles_count}</span>,
        className: 'w-20',
        skeleton: 'w-6',
      },
      roles: { render: (row) => <RoleBadges names={row.roles} />, className: 'min-w-32', skeleton: 'w-24' },
      is_active: {
        render: (row) =>
          row.deleted_at ? (
            <Badge tone="danger" dot title={t.table.deletedOn(formatDate(row.deleted_at, 'day', locale))}>
              {t.table.deleted}
            </Badge>
          ) : row.is_active ? (
            <Badge tone="success" dot>
              {t.table.active}
            </Badge>
          ) : (
            <Badge tone="neutral" dot>
              {t.table.inactive}
            </Badge>
          ),
        className: 'w-28',
        skeleton: 'w-16',
      },
      created_at: { render: (row) => <DateCell iso={row.created_at} locale={locale} />, className: 'w-32' },
    },
  });
}

/**
 * The columns for a list answer: built again only when the attributes it carries change (each
 * page's answer is a new object, but its definitions are mostly the same).
 */
export function columnsByDefinitions(m: Messages) {
  let last: { key: string; columns: ReturnType<typeof usersColumns> } | null = null;
  return (data: { attributes?: readonly AttributeColumnDefinition[] | undefined } | undefined) => {
    const key = definitionsKey(data?.attributes);
    if (last?.key !== key) last = { key, columns: usersColumns(m, data?.attributes) };
    return last.columns;
  };
}
