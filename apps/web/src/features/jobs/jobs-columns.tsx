import type { JobWithSubmitter } from '@app/contracts';
import { Badge } from '@app/ui';
import { Link } from 'react-router';
import { formatCount } from '../../i18n/list-strings';
import type { Messages } from '../../i18n/messages';
import { defineColumns } from '../../lib/resource-list/define-columns';
import { JOB_TONES, jobTitle, percentDone, submitterText } from './job-format';

/** The job (its link), its status next so a phone shows it unscrolled, then its numbers, who submitted it and when. */
const KEYS = ['id', 'status', 'progress', 'changed', 'skipped', 'submitted_by', 'created_at'] as const;

/**
 * The jobs list's columns. `dryRuns`: the list shows dry runs (they are listed only when asked,
 * never beside real runs), whose count is what they would change.
 */
export function jobsColumns(m: Messages, dryRuns = false) {
  const t = m.jobs;
  return defineColumns<JobWithSubmitter, (typeof KEYS)[number]>({
    keys: KEYS,
    labels: { ...t.columns, changed: dryRuns ? t.columns.wouldChange : t.columns.changed },
    primary: 'id',
    cells: {
      id: {
        render: (row) => (
          <span className="flex flex-wrap items-center gap-2">
            <Link
              to={`/jobs/${row.id}`}
              className="rounded-sm font-medium text-foreground underline-offset-4 hover:underline"
            >
              {t.jobName(row.id, jobTitle(row, m))}
            </Link>
            {row.dryRun ? <Badge tone="neutral">{t.dryRunTag}</Badge> : null}
          </span>
        ),
      },
      status: {
        render: (row) => (
          <Badge tone={JOB_TONES[row.status]} dot className="whitespace-nowrap">
            {t.statuses[row.status]}
          </Badge>
        ),
        className: 'w-32',
      },
      progress: {
        render: (row) => (
          <span className="whitespace-nowrap tabular-nums">
            {t.progressOf(row.progress.processed, row.progress.total)}
            <span className="ml-1.5 text-muted-foreground">({percentDone(row.progress)}%)</span>
          </span>
        ),
        className: 'w-48',
      },
      changed: {
        render: (row) => <span className="tabular-nums">{formatCount(row.progress.changed)}</span>,
        className: 'w-24',
      },
      skipped: {
        render: (row) => <span className="tabular-nums">{formatCount(row.progress.skipped)}</span>,
        className: 'w-24',
      },
      submitted_by: {
        render: (row) => (
          <span className={row.submitted_by ? 'block truncate' : 'block truncate text-muted-foreground'}>
            {submitterText(row, m)}
          </span>
        ),
        className: 'max-w-48',
      },
      created_at: {
        render: (row) => (
          <time dateTime={row.created_at} className="whitespace-nowrap tabular-nums">
            {m.common.dateTime(row.created_at)}
          </time>
        ),
        className: 'w-44',
      },
    },
  });
}
