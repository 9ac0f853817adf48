import { useId } from 'react';
import { cn } from './cn';
import type { TableDensity } from './data-table';
import { RowsComfortableIcon, RowsCompactIcon } from './icons';

export interface DensityToggleProps {
  value: TableDensity;
  onValueChange: (density: TableDensity) => void;
  /** The group's name ("Row density"). */
  label: string;
  optionLabels: Record<TableDensity, string>;
  className?: string;
}

const OPTIONS = [
  { value: 'comfortable', icon: RowsComfortableIcon },
  { value: 'compact', icon: RowsCompactIcon },
] as const;

/** A native radio group: arrow keys and the checked state come from the browser. */
export function DensityToggle({ value, onValueChange, label, optionLabels, className }: DensityToggleProps) {
  const name = useId();
  return (
    <fieldset
      className={cn('flex h-8 items-center rounded-md border border-border bg-surface-muted/60 p-0.5', className)}
    >
      <legend className="sr-only">{label}</legend>
      {OPTIONS.map(({ value: option, icon: Icon }) => (
        <label key={option} title={optionLabels[option]} className="relative flex cursor-pointer">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            onChange={() => onValueChange(option)}
            className="peer sr-only"
          />
          <span
            className={cn(
              'flex h-6.5 w-7 items-center justify-center rounded-[5px] text-muted-foreground transition-colors',
              'hover:text-foreground peer-checked:bg-surface peer-checked:text-foreground peer-checked:shadow-xs',
              'peer-checked:ring-1 peer-checked:ring-border dark:peer-checked:bg-white/10',
              'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-ring',
            )}
          >
            <Icon className="size-3.5" />
          </span>
          <span className="sr-only">{optionLabels[option]}</span>
        </label>
      ))}
    </fieldset>
  );
}
