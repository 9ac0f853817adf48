import type { JobWithSubmitter } from '@app/contracts';
import { Badge } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../i18n/list-strings';
import type { Messages } from '../../i18n/messages';
import { JOB_TONES, operationLabel, percentDone, submitterText } from './job-format';

type Key = keyof Messages['jobs']['columns'];
type Row = JobWithSubmitter;

/**
 * The jobs list's columns: the job (its link), its status next so a phone shows it unscrolled,
 * then its numbers, who submitted it and when.
 */
export function jobsColumns(m: Messages): ColumnDef<Row>[] {
  const t = m.jobs;
  const column = (key: Key, render: (row: Row) => ReactNode, className?: string): ColumnDef<Row> => ({
    id: key,
    enableSorting: false,
    header: () => t.columns[key],
    cell: ({ row }) => render(row.original),
    meta: { className, skeletonClassName: 'w-20', label: t.columns[key], primary: key === 'id' },
  });
  return [
    column('id', (row) => (
      <span className="flex flex-wrap items-center gap-2">
        <Link
          to={`/jobs/${row.id}`}
          className="rounded-sm font-medium text-foreground underline-offset-4 hover:underline"
        >
          {t.jobName(row.id, operationLabel(row, m))}
        </Link>
        {row.dryRun ? <Badge tone="neutral">{t.dryRunTag}</Badge> : null}
      </span>
    )),
    column(
      'status',
      (row) => (
        <Badge tone={JOB_TONES[row.status]} dot className="whitespace-nowrap">
          {t.statuses[row.status]}
        </Badge>
      ),
      'w-32',
    ),
    column(
      'progress',
      (row) => (
        <span className="whitespace-nowrap tabular-nums">
          {t.progressOf(row.progress.processed, row.progress.total)}
          <span className="ml-1.5 text-muted-foreground">({percentDone(row.progress)}%)</span>
        </span>
      ),
      'w-48',
    ),
    column('changed', (row) => <span className="tabular-nums">{formatCount(row.progress.changed)}</span>, 'w-24'),
    column('skipped', (row) => <span className="tabular-nums">{formatCount(row.progress.skipped)}</span>, 'w-24'),
    column(
      'submitted_by',
      (row) => (
        <span className={row.submitted_by ? 'block truncate' : 'block truncate text-muted-foreground'}>
          {submitterText(row, m)}
        </span>
      ),
      'max-w-48',
    ),
    column(
      'created_at',
      (row) => (
        <time dateTime={row.created_at} className="whitespace-nowrap tabular-nums">
          {m.common.dateTime(row.created_at)}
        </time>
      ),
      'w-44',
    ),
  ];
}
