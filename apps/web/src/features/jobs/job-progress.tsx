import type { Job } from '@app/contracts';
import { cn } from '@app/ui';
import { useMessages } from '../../i18n/messages';
import { formatCount } from '../../i18n/list-strings';
import { percentDone } from './job-format';

/** A bar for how far a job is, with its numbers beside it: processed of total. */
export function JobProgressBar({ job, className }: { job: Job; className?: string }) {
  const m = useMessages();
  const t = m.jobs;
  const { progress } = job;
  const percent = percentDone(progress);
  return (
    <div className={cn('space-y-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-foreground tabular-nums">
          {t.progressOf(progress.processed, progress.total)}
        </span>
        <span className="text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={t.job.progressLabel}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.processed}
        aria-valuetext={t.progressOf(progress.processed, progress.total)}
        className="h-2 overflow-hidden rounded-full bg-surface-muted"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width] duration-500',
            job.status === 'failed' ? 'bg-danger' : job.status === 'succeeded' ? 'bg-success' : 'bg-primary',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

type Figure = { label: string; value: string };

/** Changed and skipped, or in an import's undo what it did to the accounts: moved to the trash, put back, left. */
function outcomeFigures(job: Job, t: ReturnType<typeof useMessages>['jobs']['job']): Figure[] {
  const accounts = job.undo?.accounts;
  if (!accounts) {
    return [
      { label: job.dryRun ? t.wouldChange : t.changed, value: formatCount(job.progress.changed) },
      { label: t.skipped, value: formatCount(job.progress.skipped) },
    ];
  }
  return [
    { label: job.dryRun ? t.wouldRemove : t.removed, value: formatCount(accounts.removed) },
    { label: job.dryRun ? t.wouldRestore : t.restored, value: formatCount(accounts.restored) },
    { label: t.leftAlone, value: formatCount(job.progress.skipped) },
  ];
}

/** The counts as small figures: changed, skipped, failed (and rate and time left while running). */
export function JobFigures({ job, pace }: { job: Job; pace?: { rate: number | null; eta: number | null } }) {
  const m = useMessages();
  const t = m.jobs.job;
  const figures: Figure[] = [...outcomeFigures(job, t), { label: t.failed, value: formatCount(job.progress.failed) }];
  if (pace) {
    figures.push(
      { label: t.rate, value: pace.rate === null ? t.none : t.perSecond(pace.rate) },
      { label: t.eta, value: pace.eta === null ? t.none : t.etaIn(pace.eta) },
    );
  }
  return (
    <dl
      className={cn('grid grid-cols-2 gap-3 sm:grid-cols-3', figures.length > 5 ? 'lg:grid-cols-6' : 'lg:grid-cols-5')}
    >
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-lg border border-border bg-surface-muted/40 px-3 py-2">
          <dt className="text-xs text-muted-foreground">{figure.label}</dt>
          <dd className="mt-0.5 font-semibold text-foreground tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}
