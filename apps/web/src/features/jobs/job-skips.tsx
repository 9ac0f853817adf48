import type { JobShow } from '@app/contracts';
import { ScrollRegion } from '@app/ui';
import { TriangleAlert } from 'lucide-react';
import { useMessages } from '../../i18n/messages';
import { formatCount } from '../../i18n/list-strings';

/**
 * The users a job skipped, per reason: how many, and the first few of each (the server keeps up
 * to 20 examples per code; the report has every one).
 */
export function JobSkips({ data }: { data: JobShow }) {
  const m = useMessages();
  const t = m.jobs;
  const codes = Object.entries(data.item.counts).filter(([, count]) => count > 0);
  if (codes.length === 0) return null;
  return (
    <>
      {data.people.allowed ? null : <p className="mb-2 text-xs text-muted-foreground">{data.people.message}</p>}
      <ul className="space-y-3">
        {codes.map(([code, count]) => {
          const examples = data.examples[code] ?? [];
          return (
            <li key={code} className="rounded-lg border border-border">
              <p className="flex items-center gap-2 border-b border-border bg-surface-muted/40 px-3 py-2 text-sm">
                <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-warning" />
                <span className="font-medium text-foreground">{t.skipCode(code)}</span>
                <span className="ml-auto text-muted-foreground tabular-nums">{formatCount(count)}</span>
              </p>
              {examples.length > 0 ? (
                <ScrollRegion label={t.skipCode(code)} className="max-h-44 rounded-b-lg">
                  <ul className="divide-y divide-border text-sm">
                    {examples.map((example, index) => (
                      // Withheld examples have neither id nor e-mail: their place is their key.
                      <li key={example.id ?? `n${index}`} className="px-3 py-1.5">
                        {example.email === null ? null : <p className="truncate text-foreground">{example.email}</p>}
                        <p className="text-muted-foreground">{example.message}</p>
                      </li>
                    ))}
                    {count > examples.length ? (
                      <li className="px-3 py-1.5 text-muted-foreground">
                        {t.outcome.moreOfCode(count - examples.length)}
                      </li>
                    ) : null}
                  </ul>
                </ScrollRegion>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
