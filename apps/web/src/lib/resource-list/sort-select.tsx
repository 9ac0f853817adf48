import { cn, NativeSelect } from '@app/ui';
import type { Table } from '@tanstack/react-table';
import { useId } from 'react';

export interface SortSelectStrings {
  sortBy: string;
  sortDefault: string;
  sortAscending: (column: string) => string;
  sortDescending: (column: string) => string;
}

/** The sort of a card list, where there are no column headers to click: one choice, column and direction. */
export function SortSelect<Row>({
  table,
  strings: t,
  className,
}: {
  table: Table<Row>;
  strings: SortSelectStrings;
  className?: string;
}) {
  const id = useId();
  const sortable = table.getAllLeafColumns().filter((column) => column.getCanSort());
  if (sortable.length === 0) return null;
  const [current] = table.getState().sorting;
  const value = current ? `${current.id}:${current.desc ? 'desc' : 'asc'}` : '';
  const choose = (next: string) => {
    const [column, dir] = next.split(':');
    table.setSorting(column ? [{ id: column, desc: dir === 'desc' }] : []);
  };
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <label htmlFor={id} className="shrink-0 text-xs font-medium text-muted-foreground">
        {t.sortBy}
      </label>
      <NativeSelect id={id} value={value} onChange={(event) => choose(event.target.value)} className="min-w-0 flex-1">
        <option value="">{t.sortDefault}</option>
        {sortable.map((column) => {
          const name = column.columnDef.meta?.label ?? column.id;
          return [
            <option key={`${column.id}:asc`} value={`${column.id}:asc`}>
              {t.sortAscending(name)}
            </option>,
            <option key={`${column.id}:desc`} value={`${column.id}:desc`}>
              {t.sortDescending(name)}
            </option>,
          ];
        })}
      </NativeSelect>
    </div>
  );
}
