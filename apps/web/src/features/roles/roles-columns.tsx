import { ROLE_COLUMN_KEYS, type RoleColumnKey, type RoleListRow, rolesListQuery } from '@app/contracts';
import { Link } from 'react-router';
import type { RolesPageMessages } from '../../i18n/roles-messages';
import { DateCell, defineColumns } from '../../lib/resource-list/define-columns';
import { roleMembersHref } from '../../lib/resource-list/list-links';

interface CellOptions {
  m: RolesPageMessages;
  /** Member counts link to the users list only for a viewer who may open it. */
  canOpenUsers: boolean;
}

/** The table's columns: the export's, less the granted names, which a list row carries only as a count. */
type TableColumnKey = Exclude<RoleColumnKey, 'permissions'>;
const TABLE_COLUMN_KEYS = ROLE_COLUMN_KEYS.filter((key): key is TableColumnKey => key !== 'permissions');

/** The roles table's columns, in the contract's order; the name links to the role. */
export function rolesColumns({ m, canOpenUsers }: CellOptions) {
  return defineColumns<RoleListRow, TableColumnKey>({
    keys: TABLE_COLUMN_KEYS,
    labels: m.roles.columns,
    primary: 'name',
    sortable: rolesListQuery.sorts,
    cells: {
      id: {
        render: (row) => <span className="text-muted-foreground tabular-nums">{row.id}</span>,
        className: 'w-16',
        skeleton: 'w-8',
      },
      name: {
        render: (row) => (
          <Link
            to={`/roles/${row.id}`}
            className="block max-w-56 truncate rounded-sm font-medium text-foreground underline-offset-4 hover:underline"
          >
            {row.name}
          </Link>
        ),
        className: 'min-w-36',
        skeleton: 'w-28',
      },
      description: {
        render: (row) =>
          row.description ? (
            <span className="block max-w-sm truncate text-muted-foreground" title={row.description}>
              {row.description}
            </span>
          ) : (
            <span className="text-muted-foreground">{m.roles.noDescription}</span>
          ),
        skeleton: 'w-48',
      },
      permissions_count: {
        render: (row) => <span className="tabular-nums">{row.permissions_count}</span>,
        className: 'w-28',
        skeleton: 'w-6',
      },
      users_count: {
        render: (row) =>
          canOpenUsers ? (
            <Link
              to={roleMembersHref(row.id)}
              aria-label={m.roles.members(row.users_count, row.name)}
              className="rounded-sm font-medium tabular-nums underline underline-offset-4 hover:text-foreground"
            >
              {m.roles.count(row.users_count)}
            </Link>
          ) : (
            <span className="tabular-nums">{m.roles.count(row.users_count)}</span>
          ),
        className: 'w-24',
        skeleton: 'w-8',
      },
      created_at: { render: (row) => <DateCell iso={row.created_at} locale={m.app.locale} />, className: 'w-32' },
    },
  });
}
