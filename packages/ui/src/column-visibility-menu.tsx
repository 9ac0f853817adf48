import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu';
import { ColumnsIcon } from './icons';

export interface ColumnVisibilityOption {
  id: string;
  label: string;
  visible: boolean;
  /** Cannot be hidden (e.g. the column that links to the record). */
  locked?: boolean;
}

export interface ColumnVisibilityMenuProps {
  columns: readonly ColumnVisibilityOption[];
  onVisibilityChange: (id: string, visible: boolean) => void;
  /** The trigger's name; shown as text from the `sm` breakpoint, always its accessible name. */
  label: string;
  heading?: string;
  /** "Show all"; offered with `onReset` when a column is hidden. */
  resetLabel?: string;
  onReset?: () => void;
}

export function ColumnVisibilityMenu({
  columns,
  onVisibilityChange,
  label,
  heading,
  resetLabel,
  onReset,
}: ColumnVisibilityMenuProps) {
  const someHidden = columns.some((column) => !column.visible);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={label} className="px-2.5 sm:px-3">
          <ColumnsIcon />
          <span className="hidden sm:inline">{label}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {heading ? <DropdownMenuLabel>{heading}</DropdownMenuLabel> : null}
        {columns.map((column) => (
          <DropdownMenuCheckboxItem
            key={column.id}
            checked={column.visible}
            disabled={column.locked}
            // Keep the menu open: people usually toggle several columns in a row.
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) => onVisibilityChange(column.id, checked === true)}
          >
            {column.label}
          </DropdownMenuCheckboxItem>
        ))}
        {onReset && resetLabel && someHidden ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onReset}>{resetLabel}</DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
