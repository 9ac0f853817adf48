import { isFinishedJob, type Job, type JobStatus, type JobWithSubmitter } from '@app/contracts';
import type { BadgeTone } from '@app/ui';
import type { Messages } from '../../i18n/messages';
import { selectionConditions } from './job-target';

export const JOB_TONES: Record<JobStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'warning',
  cancelling: 'warning',
  cancelled: 'neutral',
  succeeded: 'success',
  failed: 'danger',
};

/** What a job does, in words ("Deactivate users"). */
export function operationLabel(
  job: Pick<Job, 'kind' | 'operation' | 'active'> & Partial<Pick<Job, 'role' | 'attribute'>>,
  m: Messages,
): string {
  const t = m.jobs.operations;
  if (job.kind === 'import') return job.operation === 'upsert' ? t.importUpsert : t.import;
  if (job.kind === 'undo') return t.undo;
  switch (job.operation) {
    case 'setActive':
      return job.active ? t.activate : t.deactivate;
    case 'delete':
    case 'restore':
    case 'forceDelete':
    case 'invite':
      return t[job.operation];
    case 'addRole':
    case 'removeRole':
      return t[job.operation](job.role?.name ?? null);
    case 'setAttribute':
      return t.setAttribute(job.attribute?.label ?? null);
    default:
      return t.other;
  }
}

/** What a bulk job does, to `who` (its users, counted). */
function actionOn(job: Pick<Job, 'operation' | 'active' | 'role' | 'attribute'>, who: string, m: Messages): string {
  const t = m.jobs.titles.actions;
  switch (job.operation) {
    case 'setActive':
      return job.active ? t.activate(who) : t.deactivate(who);
    case 'delete':
    case 'restore':
    case 'forceDelete':
    case 'invite':
      return t[job.operation](who);
    case 'addRole':
    case 'removeRole':
      return t[job.operation](who, job.role?.name ?? null);
    case 'setAttribute':
      return t.setAttribute(who, job.attribute?.label ?? null);
    default:
      return t.other(who);
  }
}

/**
 * A job's title: what it does and what it ran on, in words — "Deactivate 2,461 users matching
 * Status: Active", "Import people.csv (add and update)", "Undo job #12". A job whose answer does
 * not say what it ran on (a submission's) is named by what it does.
 */
export function jobTitle(
  job: Pick<Job, 'kind' | 'operation' | 'active' | 'role' | 'attribute' | 'progress' | 'target'>,
  m: Messages,
): string {
  const t = m.jobs.titles;
  const target = job.target;
  switch (target?.kind) {
    case 'file':
      return t.import(target.name, target.mode);
    case 'job':
      return t.undo(target.id);
    case 'selection':
      return t.selection(actionOn(job, t.users(job.progress.total), m), selectionConditions(target, m), target.except);
    default:
      return operationLabel(job, m);
  }
}

/** A job's changed count in words: what a dry run would change, never "changed". */
export function countsText(job: Pick<Job, 'dryRun' | 'progress'>, m: Messages): string {
  const t = m.jobs.finishedToast;
  const { changed, skipped } = job.progress;
  return job.dryRun ? t.wouldCounts(changed, skipped) : t.counts(changed, skipped);
}

/**
 * Whose job it is: the submitter's current name, the account's id if it has been erased since, or
 * the system (the command line), in the audit log's words.
 */
export function submitterText(job: Pick<JobWithSubmitter, 'actor_id' | 'submitted_by'>, m: Messages): string {
  if (job.submitted_by) return job.submitted_by.name;
  return job.actor_id === null ? m.common.system : m.common.erasedUser(job.actor_id);
}

/** A job still moving (queued, running or cancelling): worth polling and showing in the header. */
export const isLiveJob = (job: Pick<Job, 'status'>): boolean => !isFinishedJob(job.status);

/** A reading of a job's progress, at a moment (ms since the epoch). */
export interface ProgressSample {
  at: number;
  processed: number;
}

/** Rates are measured over the last this many ms of samples: recent enough to follow a change of pace. */
export const RATE_WINDOW_MS = 15_000;

/**
 * Users per second, from the samples seen while polling (oldest first): the slope between the
 * oldest sample inside the window and the newest. Null until two samples a moment apart differ.
 */
export function rateOf(samples: readonly ProgressSample[]): number | null {
  const last = samples.at(-1);
  if (!last) return null;
  const first = samples.find((s) => last.at - s.at <= RATE_WINDOW_MS && s.at < last.at) ?? null;
  if (!first) return null;
  const seconds = (last.at - first.at) / 1000;
  const done = last.processed - first.processed;
  return seconds > 0 && done > 0 ? done / seconds : null;
}

/** Seconds until `total` at `rate`, or null when there is no rate to go by. */
export function etaSeconds(progress: { total: number; processed: number }, rate: number | null): number | null {
  if (rate === null || rate <= 0) return null;
  return Math.max(0, progress.total - progress.processed) / rate;
}

/** The share done, 0–100, for the progress bar. */
export function percentDone(progress: { total: number; processed: number }): number {
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.round((progress.processed / progress.total) * 100));
}
