import type { ImportMode, JobStatus } from '@app/contracts';
import { formatCount, listStrings } from './list-strings';

const STATUSES: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  cancelling: 'Cancelling',
  cancelled: 'Cancelled',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** What a job does: a bulk job by operation (and the state asked for), an import by mode, an undo. */
const OPERATIONS = {
  import: 'Import users',
  importUpsert: 'Import and update users',
  undo: 'Undo an import',
  activate: 'Activate users',
  deactivate: 'Deactivate users',
  delete: 'Delete users',
  restore: 'Restore users',
  forceDelete: 'Permanently delete users',
  addRole: (role: string | null) => (role ? `Give users the role ${role}` : 'Give users a role'),
  removeRole: (role: string | null) => (role ? `Take the role ${role} from users` : 'Take a role from users'),
  invite: 'Invite users',
  setAttribute: (label: string | null) => (label ? `Set ${label}` : 'Set an attribute'),
  other: 'Background job',
};

/** Why users were skipped, by the code the server gives (the report says it per user). */
const SKIP_CODES: Record<string, string> = {
  OUTRANKED: 'Hold permissions you lack',
  SELF_DEACTIVATION: 'Your own account',
  SELF_DELETE: 'Your own account',
  LAST_ADMIN: 'Would leave no active administrator',
  NOT_INACTIVE: 'Still active (deactivate first)',
  NOT_FOUND: 'No longer exist',
  NOT_DELETED: 'Not in the trash',
  FORBIDDEN: 'Not allowed by the record policy',
  INTERNAL: 'Failed unexpectedly',
  ROLE_ALREADY_HELD: 'Already hold the role',
  ROLE_NOT_HELD: 'Do not hold the role',
  NOT_ACTIVE: 'Not active (activate first)',
  ALREADY_SIGNED_IN: 'Have signed in before (send a password reset instead)',
  CHANGED_SINCE: 'Changed since by someone else',
  EMAIL_TAKEN: 'Their old e-mail belongs to another account now',
};

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/** What a bulk job does to the users it ran on, named with their number ("Deactivate 2,461 users"). */
const ACTIONS = {
  activate: (who: string) => `Activate ${who}`,
  deactivate: (who: string) => `Deactivate ${who}`,
  delete: (who: string) => `Delete ${who}`,
  restore: (who: string) => `Restore ${who}`,
  forceDelete: (who: string) => `Permanently delete ${who}`,
  invite: (who: string) => `Invite ${who}`,
  addRole: (who: string, role: string | null) => (role ? `Add role “${role}” to ${who}` : `Add a role to ${who}`),
  removeRole: (who: string, role: string | null) =>
    role ? `Remove role “${role}” from ${who}` : `Remove a role from ${who}`,
  setAttribute: (who: string, label: string | null) =>
    label ? `Set ${label} for ${who}` : `Set an attribute for ${who}`,
  other: (who: string) => `Change ${who}`,
};

/** An import's mode in a job's title, short: the import page's choice says it in full. */
const IMPORT_MODE_WORDS: Record<ImportMode, string> = { create: 'add only', upsert: 'add and update' };

/** Background jobs: the list, one job's page, the header indicator, the selection's dialog. */
export const jobsMessages = {
  ...listStrings({
    one: 'job',
    many: 'jobs',
    label: 'Jobs',
    search: { label: 'Search jobs by kind, operation or status', placeholder: 'Operation or status…' },
    noneTitle: 'No jobs yet',
    noneBody: 'Bulk changes over every matching user run here, in the background.',
    noMatchBody: 'Try another search or status, or clear the filters.',
  }),
  nav: 'Jobs',
  title: 'Jobs',
  subtitle: 'Bulk changes running in the background, with their progress and reports.',
  statuses: STATUSES,
  operations: OPERATIONS,
  skipCodes: SKIP_CODES,
  skipCode: (code: string) => SKIP_CODES[code] ?? code,
  filterStatus: 'Status',
  filterRuns: 'Show',
  dryRunsOnly: 'Dry runs',
  /** A job's title: what it does and what it ran on, in words. */
  titles: {
    users,
    actions: ACTIONS,
    chip: (label: string, value: string) => `${label}: ${value}`,
    withheld: (count: number) =>
      count === 1 ? '1 condition you may not see' : `${formatCount(count)} conditions you may not see`,
    selection: (action: string, conditions: string[], except: number) =>
      `${action}${conditions.length ? ` matching ${conditions.join(', ')}` : ''}${except ? ` (${formatCount(except)} left out)` : ''}`,
    import: (file: string | null, mode: ImportMode) => `Import ${file ?? 'a file'} (${IMPORT_MODE_WORDS[mode]})`,
    undo: (id: number) => `Undo job #${id}`,
  },
  columns: {
    id: 'Job',
    status: 'Status',
    progress: 'Progress',
    changed: 'Changed',
    wouldChange: 'Would change',
    skipped: 'Skipped',
    submitted_by: 'Submitted by',
    created_at: 'Started',
  },
  jobName: (id: number, operation: string) => `${operation} · #${id}`,
  /** A job named among other things (the audit trail): by its title, or by its id alone once pruned. */
  reference: (id: number, title: string | null) => (title ? `Job #${id} · ${title}` : `Job #${id}`),
  dryRunTag: 'Dry run',
  open: (id: number) => `Open job #${id}`,
  progressOf: (processed: number, total: number) => `${formatCount(processed)} of ${formatCount(total)}`,
  job: {
    back: 'Jobs',
    loading: 'Loading the job…',
    notFoundTitle: 'Job not found',
    notFoundDescription: 'This job does not exist, or it is someone else’s.',
    errorTitle: 'The job could not be loaded',
    progressLabel: 'Progress',
    processed: 'Processed',
    changed: 'Changed',
    wouldChange: 'Would change',
    /** An import's undo: accounts the import created, moved to the trash; accounts it updated, put back. */
    removed: 'Moved to the trash',
    wouldRemove: 'Would move to the trash',
    restored: 'Put back',
    wouldRestore: 'Would put back',
    leftAlone: 'Left as they are',
    skipped: 'Skipped',
    failed: 'Failed',
    rate: 'Rate',
    eta: 'Time left',
    perSecond: (rate: number) => `${formatCount(Math.round(rate))} users/s`,
    measuring: 'Measuring…',
    etaIn: (seconds: number) =>
      seconds < 60
        ? `About ${Math.max(1, Math.round(seconds))} s`
        : seconds < 3600
          ? `About ${Math.round(seconds / 60)} min`
          : `About ${Math.round(seconds / 360) / 10} h`,
    none: '—',
    cancel: 'Cancel job',
    cancelling: 'Cancelling…',
    cancelled: 'The job stops before its next chunk.',
    report: 'Report',
    reportDescription:
      'Every user the job changed (with each field before and after), skipped or failed on, with the reason.',
    reportCsv: 'Download CSV',
    reportJson: 'Download JSON',
    detailsTitle: 'Details',
    submitted: 'Submitted',
    submittedBy: 'Submitted by',
    started: 'Started',
    finished: 'Finished',
    via: 'Through',
    error: 'Error',
    skippedTitle: 'Skipped users',
    skippedDescription: 'The first users skipped for each reason; the report lists every one.',
  },
  outcome: {
    wouldChange: (count: number) => `${users(count)} would be changed`,
    changed: (count: number) => `${users(count)} changed`,
    skipped: (count: number) => `${formatCount(count)} skipped`,
    noneSkipped: 'None would be skipped.',
    moreOfCode: (count: number) => `…and ${formatCount(count)} more`,
  },
  indicator: {
    /** The header link's words: the count always shows, the rest from 640 px up (and to screen readers). */
    rest: (count: number) => (count === 1 ? ' job running' : ' jobs running'),
    label: (count: number) => `${formatCount(count)}${count === 1 ? ' job running' : ' jobs running'}`,
    /** The one job moving, by its title. */
    one: (title: string) => `${title}: running`,
  },
  finishedToast: {
    succeeded: (operation: string) => `${operation}: done`,
    cancelled: (operation: string) => `${operation}: cancelled`,
    failed: (operation: string) => `${operation}: failed`,
    counts: (changed: number, skipped: number) => `${users(changed)} changed, ${formatCount(skipped)} skipped.`,
    /** A dry run changed nobody: what it found would change. */
    wouldCounts: (changed: number, skipped: number) =>
      `${users(changed)} would be changed, ${formatCount(skipped)} would be skipped.`,
    view: 'View',
  },
  /** A bulk action's real job was submitted (the selection's dialog hands it over). */
  submitted: 'The job has started. You can follow it here or from any page.',
};
