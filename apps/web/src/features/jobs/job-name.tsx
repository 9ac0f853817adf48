import { Badge } from '@app/ui';
import { Link } from 'react-router';
import type { Messages } from '../../i18n/messages';
import { jobTitle } from './job-format';

/**
 * What a job's title is drawn from: the job itself, or an audit row's `target_jobs` entry, which
 * says whether the reader may open the job's page (`open`; a job's own page is open).
 */
type TitleFacts = Parameters<typeof jobTitle>[0] & { dryRun: boolean; open?: boolean };

/**
 * A job named where other things are named too (the audit trail): "Job #11 · Deactivate 1,500
 * users matching Status: Active", its title as /jobs shows it; "Job #11" alone for a job pruned
 * since (nothing is left to say what it did).
 */
export function jobName(id: number, job: TitleFacts | undefined, m: Messages): string {
  return m.jobs.reference(id, job ? jobTitle(job, m) : null);
}

/**
 * A job by {@link jobName}, linking to its page while it exists and the reader may open it, with a
 * tag when it was a dry run.
 * `compact` keeps it to two lines (a table's cell), its whole name in the tooltip.
 */
export function JobName({
  id,
  job,
  m,
  compact = false,
}: {
  id: number;
  job: TitleFacts | undefined;
  m: Messages;
  compact?: boolean;
}) {
  const name = jobName(id, job, m);
  const cut = compact ? 'line-clamp-2 break-words' : '';
  // In a table's cell the name takes the whole width (the tag goes under it), and keeps enough
  // of it that the table's layout cannot squeeze it to a word a line.
  const layout = compact ? 'flex min-w-44 flex-col items-start gap-0.5' : 'flex min-w-0 items-baseline gap-1.5';
  return (
    <span className={layout}>
      {job && job.open !== false ? (
        <Link
          to={`/jobs/${id}`}
          title={compact ? name : undefined}
          className={`${cut} rounded-sm font-medium underline-offset-4 hover:underline`}
        >
          {name}
        </Link>
      ) : (
        <span className={cut}>{name}</span>
      )}
      {job?.dryRun ? (
        <Badge tone="neutral" className="shrink-0 whitespace-nowrap">
          {m.jobs.dryRunTag}
        </Badge>
      ) : null}
    </span>
  );
}
