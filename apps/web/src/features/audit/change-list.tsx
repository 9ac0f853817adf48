import type { AuditRow } from '@app/contracts';
import { cn } from '@app/ui';
import { ArrowRight } from 'lucide-react';
import { useAuditMessages } from '../../i18n/audit-messages';
import { fieldLabel, valueText } from './audit-format';

/**
 * An event's changes, one field per line: its name, the value before (struck through) and the
 * value after. Screen readers hear "Status: Active, then Inactive" rather than the arrow.
 */
export function ChangeList({
  changes,
  hidden = [],
  className,
}: {
  changes: AuditRow['changes'];
  /** Fields that changed whose values the reader may not see. */
  hidden?: readonly string[];
  className?: string;
}) {
  const m = useAuditMessages();
  const t = m.audit.event;
  const fields = Object.entries(changes);
  if (fields.length === 0 && hidden.length === 0)
    return <p className={cn('text-sm text-muted-foreground', className)}>{m.audit.noChanges}</p>;
  return (
    <dl className={cn('grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(6rem,auto)_1fr]', className)}>
      {fields.map(([field, change]) => (
        <div key={field} className="contents">
          <dt className="font-medium text-foreground">{fieldLabel(field, m)}</dt>
          <dd className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            {/* A field that had no value (a creation) shows only what it became. */}
            {change.from === null || change.from === undefined ? null : (
              <>
                <span className="sr-only">{t.before}:</span>
                <span className="rounded bg-danger/10 px-1.5 py-0.5 break-all text-foreground line-through decoration-danger">
                  {valueText(field, change.from, m)}
                </span>
                <ArrowRight aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
              </>
            )}
            <span className="sr-only">{t.after}:</span>
            <span className="rounded bg-success/15 px-1.5 py-0.5 break-all text-foreground">
              {valueText(field, change.to, m)}
            </span>
          </dd>
        </div>
      ))}
      {hidden.map((field) => (
        <div key={field} className="contents">
          <dt className="font-medium text-foreground">{fieldLabel(field, m)}</dt>
          <dd className="text-muted-foreground">{t.hiddenValue}</dd>
        </div>
      ))}
    </dl>
  );
}
