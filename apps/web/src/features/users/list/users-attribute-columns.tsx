import { type AttributeField, type AttributeValue, attributePath, type UserListRow } from '@app/contracts';
import { DataTableColumnHeader } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../../i18n/dates';
import { useMessages } from '../../../i18n/messages';

/** What a column needs of a definition. */
export type AttributeColumnDefinition = Pick<AttributeField, 'key' | 'label' | 'type'>;

/** The names of the users on the page, by id: a `user` value names one of them when it can. */
const PageUsersContext = createContext<ReadonlyMap<number, string>>(new Map());

export function PageUsersScope({ rows, children }: { rows: readonly UserListRow[] | undefined; children: ReactNode }) {
  const names = useMemo(() => new Map((rows ?? []).map((row) => [row.id, row.name])), [rows]);
  return <PageUsersContext value={names}>{children}</PageUsersContext>;
}

function UserValue({ id }: { id: number }) {
  const m = useMessages();
  const name = useContext(PageUsersContext).get(id);
  return (
    <Link to={`/users/${id}`} className="block max-w-48 truncate rounded-sm underline-offset-4 hover:underline">
      {name ?? m.usersList.attributes.userId(id)}
    </Link>
  );
}

/** A stored calendar day (YYYY-MM-DD) as the locale writes a day, read in UTC so it is that day everywhere. */
function dayText(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatDate(date, 'utcDay', locale);
}

/** One value in a table cell, by its type: yes/no in words, a day as a date, a user by name. */
function AttributeCell({ type, value }: { type: AttributeField['type']; value: AttributeValue | undefined }) {
  const m = useMessages();
  if (value === undefined) return null;
  if (type === 'user' && typeof value === 'number') return <UserValue id={value} />;
  if (typeof value === 'boolean') return <>{value ? m.usersList.attributes.yes : m.usersList.attributes.no}</>;
  if (type === 'date' && typeof value === 'string') {
    return (
      <time dateTime={value} className="whitespace-nowrap tabular-nums">
        {dayText(value, m.app.locale)}
      </time>
    );
  }
  if (type === 'number') return <span className="tabular-nums">{value}</span>;
  return (
    <span className="block max-w-56 truncate" title={String(value)}>
      {value}
    </span>
  );
}

/**
 * A column per custom attribute the caller may see (the list's answer says which): off until the
 * viewer shows it, headed by its label, sorted on the server by `sort=attributes.<key>`.
 */
export function attributeColumns(
  definitions: readonly AttributeColumnDefinition[] | undefined,
): ColumnDef<UserListRow>[] {
  return (definitions ?? []).map((d) => {
    const id = attributePath(d.key);
    return {
      id,
      // TanStack sorts only a column with an accessor; the server sorts, so the value is never read.
      accessorFn: () => id,
      enableSorting: true,
      enableHiding: true,
      header: ({ column }) => <DataTableColumnHeader column={column} title={d.label} />,
      cell: ({ row }) => <AttributeCell type={d.type} value={row.original.attributes?.[d.key]} />,
      meta: { label: d.label, optional: true, className: 'min-w-28', skeletonClassName: 'w-20' },
    };
  });
}

/** A key that changes only when the columns would (what each definition is called and holds). */
export const definitionsKey = (definitions: readonly AttributeColumnDefinition[] | undefined): string =>
  JSON.stringify((definitions ?? []).map((d) => [d.key, d.label, d.type]));
