import { PERMISSIONS } from '@app/contracts';
import { cn } from '@app/ui';
import { Check, Minus } from 'lucide-react';
import { useRolesMessages } from '../i18n/roles-messages';
import { permissionDescription } from '../lib/permission-description';

interface PermissionRow {
  name: string;
  granted: boolean;
}

/** `users.view` → `users`: permissions are grouped by the resource they act on. */
function groupOf(name: string): string {
  const dot = name.indexOf('.');
  return dot > 0 ? name.slice(0, dot) : 'other';
}

function groupRows(rows: readonly PermissionRow[]): Array<[string, PermissionRow[]]> {
  const groups = new Map<string, PermissionRow[]>();
  for (const row of rows) {
    const key = groupOf(row.name);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.entries()];
}

export interface PermissionListProps {
  /** Permission names held. */
  granted: readonly string[];
  /** Also list the known permissions not held, muted, so the gaps are visible too. */
  showMissing?: boolean;
  /** Where each held permission comes from, in words ("Through manager · given directly"). */
  sources?: ReadonlyMap<string, string>;
  className?: string;
}

/**
 * Permissions in plain words, grouped by resource: each row says what it allows and shows the
 * technical name for those who manage roles. Names unknown to this console are listed as they are.
 */
export function PermissionList({ granted, showMissing = false, sources, className }: PermissionListProps) {
  const m = useRolesMessages();
  const held = new Set(granted);
  const known = PERMISSIONS as readonly string[];
  const rows: PermissionRow[] = [
    ...known.filter((name) => held.has(name) || showMissing).map((name) => ({ name, granted: held.has(name) })),
    ...granted.filter((name) => !known.includes(name)).map((name) => ({ name, granted: true })),
  ];

  return (
    <div className={cn('divide-y divide-border', className)}>
      {groupRows(rows).map(([group, items]) => (
        // Not a named region: a page may also have a section named "API tokens" or "Users"; the
        // heading is what a screen reader's heading list shows.
        <section key={group} className="px-5 py-4">
          <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {m.permissions.groups[group] ?? group}
          </h3>
          <ul className="mt-2 space-y-1">
            {items.map(({ name, granted: isGranted }) => {
              const words = m.permissions.names[name];
              return (
                <li key={name} className="flex items-start gap-3 rounded-md py-1.5">
                  <span
                    className={cn(
                      'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full',
                      isGranted ? 'bg-success/12 text-success' : 'bg-surface-muted text-muted-foreground',
                    )}
                  >
                    {isGranted ? (
                      <Check aria-hidden="true" className="size-3" strokeWidth={3} />
                    ) : (
                      <Minus aria-hidden="true" className="size-3" strokeWidth={3} />
                    )}
                    <span className="sr-only">{isGranted ? m.role.granted : m.role.notGranted}</span>
                  </span>
                  <span className="min-w-0 flex-1">
                    <span
                      className={cn(
                        'flex flex-wrap items-baseline gap-x-2 text-sm font-medium',
                        isGranted ? 'text-foreground' : 'text-muted-foreground',
                      )}
                    >
                      {words?.label ?? name}
                      <code className="font-mono text-xs font-normal text-muted-foreground">{name}</code>
                    </span>
                    {permissionDescription(name) ? (
                      <span className="block text-xs text-muted-foreground">{permissionDescription(name)}</span>
                    ) : null}
                    {sources?.get(name) ? (
                      <span className="block text-xs font-medium text-foreground/80">{sources.get(name)}</span>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
