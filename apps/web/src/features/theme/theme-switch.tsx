import { cn } from '@app/ui';
import { Monitor, Moon, Sun } from 'lucide-react';
import type { ComponentType } from 'react';
import { useMessages } from '../../i18n/messages';
import type { ThemePreference } from './theme';
import { useTheme } from './theme-provider';

const OPTIONS: ReadonlyArray<{ value: ThemePreference; icon: ComponentType<{ className?: string }> }> = [
  { value: 'light', icon: Sun },
  { value: 'dark', icon: Moon },
  { value: 'system', icon: Monitor },
];

/**
 * A native radio group: arrow keys, focus and the checked state come from the browser, and
 * each icon has a text label for assistive tech (the tooltip shows it to pointer users).
 */
export function ThemeSwitch({ className }: { className?: string }) {
  const m = useMessages();
  const { preference, setPreference } = useTheme();

  return (
    <fieldset className={cn('flex items-center rounded-lg border border-border bg-surface-muted/60 p-0.5', className)}>
      <legend className="sr-only">{m.theme.label}</legend>
      {OPTIONS.map(({ value, icon: Icon }) => (
        <label key={value} title={m.theme[value]} className="relative flex cursor-pointer">
          <input
            type="radio"
            name="theme"
            value={value}
            checked={preference === value}
            onChange={() => setPreference(value)}
            className="peer sr-only"
          />
          <span
            className={cn(
              'flex size-7 items-center justify-center rounded-md text-muted-foreground transition-colors',
              'hover:text-foreground peer-checked:bg-surface peer-checked:text-foreground peer-checked:shadow-xs',
              'peer-checked:ring-1 peer-checked:ring-border dark:peer-checked:bg-white/10',
              'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-ring',
            )}
          >
            <Icon className="size-3.5" />
          </span>
          <span className="sr-only">{m.theme[value]}</span>
        </label>
      ))}
    </fieldset>
  );
}
